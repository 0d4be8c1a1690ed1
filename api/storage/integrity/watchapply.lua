-- The integrity watch's part of a write (api/codecs/watchupdate.py), applied by the lobby script
-- (api/storage/lobby_publish.lua) in the same call as the lobby update, so once and in table
-- write order like it.
--
-- watch_apply(table_id, part, keys, args) raises the part's findings; looks each anchor up in
-- the k-gram index and names the earlier table, shoe and round of the first one another shoe
-- holds (`repeated_shoe`, once per shoe), indexing the others (and, with the record on, handing
-- them to the record's lasting index); adds the round, with the chances the table's previous
-- append left for it, to the rounds waiting for their day's tally (the drift evaluator adds them
-- up, off the write path); and raises each open side bet newly exposed in the shoe. Findings go
-- to the alert stream and to the table's list of findings. The index keeps two generations:
-- when the newer holds `index_entries` entries it becomes the older, and the oldest go.
-- Returns the kinds raised, in order.
--
-- keys: alerts_key (the alert stream), index_key and index_old_key (the k-gram index: fingerprint
-- -> sighting), repeated_key (table -> the shoe named a repeat), last_key (table -> what its last
-- append left), rounds_key (rounds waiting for their tally), anchors_key (anchors waiting for the
-- record), found_key (the table's findings), shoe_facts_key (table -> what the studio reported
-- of its shoe: new decks, the cut card's last round).
-- args: index_entries, alerts_length (the stream's bound), found_kept, rounds_kept (the bound of
-- the rounds' and the anchors' lists), day (the UTC day a round whose part gives none is
-- tallied under: the write's), recording ('1': the record is on), queue_seconds (a list no
-- process took from for that long is dropped).
-- Uses the formats of api/codecs/alerts.lua, anchors.lua, tallies.lua and shoefacts.lua.
local function watch_apply(table_id, part, keys, args)
  local alerts_key, index_key, index_old_key = keys.alerts_key, keys.index_key, keys.index_old_key
  local repeated_key, last_key, found_key = keys.repeated_key, keys.last_key, keys.found_key
  local rounds_key, anchors_key = keys.rounds_key, keys.anchors_key
  local shoe_facts_key = keys.shoe_facts_key
  local rounds_kept, queue_seconds = tonumber(args.rounds_kept), tonumber(args.queue_seconds)
  local watch = cjson.decode(part)
  local raised = {}
  local function raise(kind, data)
    local id = redis.call('XADD', alerts_key, 'MAXLEN', '~', args.alerts_length, '*',
      'type', kind, 'data', data, 'table', table_id)
    redis.call('LPUSH', found_key, found_entry(id, kind, data))
    redis.call('LTRIM', found_key, 0, tonumber(args.found_kept) - 1)
    raised[#raised + 1] = kind
  end
  -- What the studio reported of the shoe (api/codecs/studioevents.py): an unshuffled shoe's
  -- alert says whether it was reported as new decks; the round after the last one the cut card
  -- leaves is impossible.
  local facts = read_facts(redis.call('HGET', shoe_facts_key, table_id))
  local shoe_facts = facts_of(facts, watch.shoe) or {}
  for _, finding in ipairs(watch.findings) do
    local data = finding[2]
    if finding[1] == 'unshuffled' then
      data = with_new_decks(data, shoe_facts.new_decks ~= nil)
    end
    raise(finding[1], data)
  end
  -- Once a shoe, at the first append past the last round (a correction's part has no tally).
  local last_round = shoe_facts.last_round
  local appended = watch.tally ~= nil
  if last_round and appended and watch.round > last_round and not shoe_facts.cut_raised then
    raise('impossible_cards', past_reported_cut(table_id, watch.shoe, watch.round, last_round))
    shoe_facts.cut_raised = true
    redis.call('HSET', shoe_facts_key, table_id, cjson.encode(facts))
  end
  -- The k-gram index: fingerprint -> the sighting of its first time seen.
  local named = redis.call('HGET', repeated_key, table_id) == watch.shoe
  for _, anchor in ipairs(watch.anchors) do
    local fp, round = anchor[1], anchor[2]
    local seen = redis.call('HGET', index_key, fp) or redis.call('HGET', index_old_key, fp)
    if not seen then
      local here = sighting(table_id, watch.shoe, round)
      redis.call('HSET', index_key, fp, here)
      if args.recording == '1' then  -- for the record's lasting index (api/record/kgrams.py)
        redis.call('RPUSH', anchors_key, anchor_entry(fp, here))
        redis.call('LTRIM', anchors_key, -rounds_kept, -1)
        redis.call('EXPIRE', anchors_key, queue_seconds)
      end
    else
      local t, s, r = parse_sighting(seen)
      if (t ~= table_id or s ~= watch.shoe) and not named then
        named = true
        redis.call('HSET', repeated_key, table_id, watch.shoe)
        raise('repeated_shoe', cjson.encode({table = table_id, shoe = watch.shoe,
          round = watch.round, from_round = round,
          earlier = {table = t, shoe = s, round = tonumber(r)}}))
      end
    end
  end
  if redis.call('HLEN', index_key) >= tonumber(args.index_entries) then
    redis.call('RENAME', index_key, index_old_key)
  end
  -- What the table's last append left: 'SHOE UPCOMING EXPOSED', its shoe, the next round's
  -- chances, the side bets exposed (comma-separated). Written and read here alone.
  local shoe_before, upcoming_before, exposed_before = nil, nil, ''
  local last = redis.call('HGET', last_key, table_id)
  if last then
    shoe_before, upcoming_before, exposed_before = string.match(last, '^(%S+) (%S+) ?(.*)$')
  end
  local same_shoe = shoe_before == watch.shoe
  -- The round for its day's tally, against the chances the shoe's previous append left for it
  -- (a shoe's first round: a fresh shoe's), added up off the write path
  -- (api.live.drift.DriftWatch.fold; api/codecs/tallies.py).
  local tally = watch.tally
  if tally ~= nil and tally ~= cjson.null then
    local expect = tally.expect
    if expect == cjson.null then
      expect = same_shoe and upcoming_before or nil
    end
    -- The day the round was dealt, as the record files it (a part made before parts said it,
    -- or of a round whose time is not known: the day the write is applied).
    local day = tally.day
    if type(day) ~= 'string' then
      day = args.day
    end
    if expect then
      redis.call('RPUSH', rounds_key,
        tally_round(table_id, day, tally.observed, tally.side, expect, tally.dealer))
      redis.call('LTRIM', rounds_key, -rounds_kept, -1)
      redis.call('EXPIRE', rounds_key, queue_seconds)
    end
    -- Side bets newly exposed in the shoe (one that loses its edge and gains it again: again).
    local before = {}
    if same_shoe then
      for bet in string.gmatch(exposed_before, '[^,]+') do
        before[bet] = true
      end
    end
    local now = {}
    for _, entry in ipairs(watch.exposed) do
      now[#now + 1] = entry[1]
      if not before[entry[1]] then
        raise('side_bet_exposed', entry[2])
      end
    end
    redis.call('HSET', last_key, table_id,
      watch.shoe .. ' ' .. tally.upcoming .. ' ' .. table.concat(now, ','))
  end
  return raised
end

-- Whether `pending`, the cards a table's meta keeps as burned before a shoe's first round
-- ('SHOE CARD...', api/codecs/roundfacts.py), are of `shoe`.
local function burned_before_of(pending, shoe)
  return string.sub(pending, 1, #shoe + 1) == shoe .. ' '
end
-- A round's game id as the scripts read it and where the table's games say its round is
-- (api/codecs/roundfacts.py): SHOE:N.
local function game_place(shoe, number)
  return shoe .. ':' .. number
end
-- The game id of a stored record (JSON), or nil for a round without one.
local function game_id_of(record)
  local ok, decoded = pcall(cjson.decode, record)
  if ok and type(decoded) == 'table' and type(decoded.game_id) == 'string' then
    return decoded.game_id
  end
  return nil
end
-- Map the game id of each of a shoe's records to its round, unless the id maps elsewhere.
local function add_games(games_key, shoe, records)
  for i, record in ipairs(records) do
    local game_id = game_id_of(record)
    if game_id then
      redis.call('HSETNX', games_key, game_id, game_place(shoe, i))
    end
  end
end
-- Unmap the game id of each of a shoe's records that maps to its round.
local function drop_games(games_key, shoe, records)
  for i, record in ipairs(records) do
    local game_id = game_id_of(record)
    if game_id and redis.call('HGET', games_key, game_id) == game_place(shoe, i) then
      redis.call('HDEL', games_key, game_id)
    end
  end
end

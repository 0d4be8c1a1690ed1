-- POST the next round of this thread's tables, in turn (a table's next round is sent only
-- after the other tables', so its previous one has long been answered).
local threads = {}
local counter = 0
function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end
function init(args)
  mine = {}
  local first, last = tonumber(os.getenv("FIRST")), tonumber(os.getenv("LAST"))
  local nthreads = tonumber(os.getenv("THREADS"))
  for t = first, last do
    if t % nthreads == id then table.insert(mine, t) end
  end
  nextround = {}
  for _, t in ipairs(mine) do nextround[t] = tonumber(os.getenv("SEEDED")) + 1 end
  position = 0
  results = {"B", "P", "B", "P", "T", "B", "P"}
end
-- wrk makes a connection's first request before the connection is up and may make it again,
-- dropping the first: that would leave a gap in a table's rounds (every later one a 409). So
-- each connection's first request is a health check.
warmups = 0
function request()
  if warmups < tonumber(os.getenv("CONNECTIONS_PER_THREAD")) then
    warmups = warmups + 1
    return wrk.format("GET", "/livez")
  end
  local batch = tonumber(os.getenv("BATCH") or "0")
  if batch == 0 then
    local t, n, result = nextone()
    local body = '{"round":' .. n .. ',"result":"' .. result .. '"}'
    return wrk.format("POST", "/v1/tables/t" .. t .. "/shoes/" .. os.getenv("SHOE") .. "/rounds",
      {["Content-Type"] = "application/json", ["X-API-Key"] = os.getenv("KEY")}, body)
  end
  -- BATCH > 0: a game server's report of the next round of BATCH of its tables (POST /v1/rounds).
  local items = {}
  for i = 1, batch do
    local t, n, result = nextone()
    items[i] = '{"table":"t' .. t .. '","shoe":"' .. os.getenv("SHOE") .. '","round":' .. n ..
      ',"result":"' .. result .. '"}'
  end
  return wrk.format("POST", "/v1/rounds",
    {["Content-Type"] = "application/json", ["X-API-Key"] = os.getenv("KEY")},
    '{"rounds":[' .. table.concat(items, ",") .. ']}')
end
function nextone()
  position = position % #mine + 1
  local t = mine[position]
  local n = nextround[t]
  nextround[t] = n + 1
  return t, n, results[(n + t) % #results + 1]
end
-- Count the rounds answered 2xx (not the health checks), for the check of the stored rounds.
stored = 0
function response(status, headers, body)
  if status >= 200 and status < 300 and string.sub(body, 1, 9) == '{"table":' then
    stored = stored + 1
  elseif status == 200 and string.sub(body, 1, 11) == '{"results":' then
    local _, created = string.gsub(body, '"status":20[01]', "")
    stored = stored + created
  end
end
function done(summary, latency, requests)
  local total = 0
  for _, thread in ipairs(threads) do total = total + thread:get("stored") end
  io.write("rounds answered 2xx: " .. total .. "\n")
end

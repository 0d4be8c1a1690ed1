-- Each thread posts its tables' rounds in turn, each table dealing the shoes of its file.
local tables = {}
local order = {}
local at = 0
function init(args)
  local first, last = tonumber(os.getenv("FIRST")), tonumber(os.getenv("LAST"))
  local threads = tonumber(os.getenv("THREADS"))
  for line in io.lines(os.getenv("ROUNDS_FILE")) do
    local t, path, body = string.match(line, "^(%d+) (%S+) (.*)$")
    t = tonumber(t)
    if t >= first and t <= last and t % threads == id then
      if not tables[t] then
        tables[t] = {next = 1, paths = {}, bodies = {}}
        order[#order + 1] = t
      end
      local entry = tables[t]
      entry.paths[#entry.paths + 1] = path
      entry.bodies[#entry.bodies + 1] = body
    end
  end
end
id = 0
function setup(thread)
  threads[#threads + 1] = thread
  thread:set("id", id)
  id = id + 1
end
local probed = false
function request()
  -- wrk asks for one request before the connections start and never sends it: that one takes
  -- no table's round.
  if not probed then
    probed = true
    return wrk.format("GET", "/livez")
  end
  at = at % #order + 1
  local entry = tables[order[at]]
  local n = entry.next
  entry.next = n + 1
  return wrk.format("POST", entry.paths[n],
    {["Content-Type"] = "application/json", ["X-API-Key"] = os.getenv("KEY")}, entry.bodies[n])
end
statuses = {}
function response(status, headers, body)
  local key = tostring(status)
  if status >= 300 then key = key .. " " .. string.sub(body, 1, 120) end
  statuses[key] = (statuses[key] or 0) + 1
end
function done(summary, latency, requests)
  local total = {}
  for _, thread in ipairs(threads) do
    for key, count in pairs(thread:get("statuses")) do
      total[key] = (total[key] or 0) + count
    end
  end
  for key, count in pairs(total) do io.write("status " .. key .. ": " .. count .. "\n") end
end
threads = {}

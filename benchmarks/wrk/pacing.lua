-- RATE: the requests a second this thread offers (0: each connection sends as soon as its last
-- answer came). Each request takes the next slot of an even schedule, on whichever connection
-- is free: the offer stays the same however slowly answers come (an open loop), as long as a
-- connection is free; a slot missed because none was is lost, not made up for.
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long seconds; long nanoseconds; } pacing_clock;
int clock_gettime(int clock, pacing_clock *now);
]]
local clock = ffi.new("pacing_clock")
local function now_ms()
  ffi.C.clock_gettime(1, clock)  -- CLOCK_MONOTONIC
  return tonumber(clock.seconds) * 1000 + tonumber(clock.nanoseconds) / 1e6
end
local next_slot = nil
function delay()
  local rate = tonumber(os.getenv("RATE") or "0")
  if rate == 0 then return 0 end
  local now = now_ms()
  if next_slot == nil or next_slot < now then next_slot = now end
  local wait = next_slot - now
  next_slot = next_slot + 1000 / rate
  return wait
end

-- GET one of the tables' resources, at random: PATH holds {t} for the table number.
function init(args)
  math.randomseed(os.time() + (id or 0))
end
function request()
  local t = math.random(0, tonumber(os.getenv("TABLES")) - 1)
  return wrk.format("GET", (os.getenv("PATH_TEMPLATE"):gsub("{t}", tostring(t))))
end

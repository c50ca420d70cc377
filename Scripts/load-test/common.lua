-- Shared by single.lua, batch.lua and hostile.lua (wrk 4, LuaJIT). run.sh sets:
--   LT_DIR   this folder
--   LT_DATA  a Lua file that returns {texts = {...}, expected = {...}}: each utterance as a JSON string
--            literal, and the CLI's JSON line for it (without the newline)
--   LT_CHECK 1: single.lua and batch.lua check every response too (hostile.lua always does)
--
-- Each wrk thread has its own Lua state, so every counter below is per thread; done() (in the main state)
-- adds them up through thread:get and prints one "LT name value" line each for run.sh.
local data = dofile(os.getenv("LT_DATA") or error("LT_DATA is not set"))
texts, expected = data.texts, data.expected
N = #texts
CHECK = os.getenv("LT_CHECK") == "1"

-- The counters done() adds up; a script may append its own before the run.
COUNTERS = {"sent", "ok", "mismatch", "s5xx", "inflight"}

local threads = {}

function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

function reset_counters()
  for _, name in ipairs(COUNTERS) do _G[name] = 0 end
  sample = ""
  pending = {}
end

function post(body)
  return wrk.format("POST", "/parse", {["Content-Type"] = "application/json"}, body)
end

-- Requests sent on this thread and not yet answered, by key (an utterance's or batch's index, or a hostile
-- kind). With one request at a time on each connection, every response must answer one of them.
function expect(key)
  pending[key] = (pending[key] or 0) + 1
  inflight = inflight + 1
end

function consume(key)
  local n = pending[key]
  if not n or n == 0 then return false end
  pending[key] = n - 1
  inflight = inflight - 1
  return true
end

function note(what, status, body)
  mismatch = mismatch + 1
  if status >= 500 then s5xx = s5xx + 1 end
  if sample == "" then
    local b = body or ""
    if #b > 300 then b = b:sub(1, 300) .. "... (" .. #body .. " bytes)" end
    sample = (what .. ": status " .. status .. ", body " .. b):gsub("[\r\n]", " ")
  end
end

-- A response that should be the CLI's answer: `key` is the index its body is the expected answer of (nil
-- when it is nobody's), which must be waiting for an answer on this thread.
function check_good(status, body, key)
  if status ~= 200 then
    note("good request not answered 200", status, body)
  elseif key == nil then
    note("200 whose body is no expected answer", status, body)
  elseif not consume(key) then
    note("200 answering a request this thread has no pending (#" .. tostring(key) .. ")", status, body)
  else
    ok = ok + 1
  end
end

function done(summary, latency, requests)
  local function out(name, value) io.write("LT ", name, " ", tostring(value), "\n") end
  local secs = summary.duration / 1e6
  out("requests", summary.requests)
  out("duration_s", string.format("%.3f", secs))
  out("rps", string.format("%.1f", summary.requests / secs))
  out("p50_ms", string.format("%.2f", latency:percentile(50) / 1000))
  out("p99_ms", string.format("%.2f", latency:percentile(99) / 1000))
  out("max_ms", string.format("%.2f", latency.max / 1000))
  for _, e in ipairs({"connect", "read", "write", "status", "timeout"}) do out("err_" .. e, summary.errors[e]) end
  local samples = {}
  TOTALS = {}
  local totals = TOTALS
  for _, t in ipairs(threads) do
    for _, name in ipairs(COUNTERS) do totals[name] = (totals[name] or 0) + (t:get(name) or 0) end
    local s = t:get("sample")
    if s and s ~= "" then table.insert(samples, s) end
  end
  for _, name in ipairs(COUNTERS) do out(name, totals[name]) end
  for _, s in ipairs(samples) do out("sample", s) end
end

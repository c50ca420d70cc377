-- wrk script: single-utterance requests with a hostile body every LT_HOSTILE_EVERY-th request (default
-- 20), the hostile kinds in rotation. Every good request must get 200 and exactly the CLI's line for its
-- utterance; every hostile one its 4xx status and {"error": "..."} saying what is wrong. A response is
-- matched to a request of its kind still waiting on this thread, so a wrong, doubled or misplaced answer
-- is counted (a "mismatch"), with the first one kept as a sample.
-- LT_BIG_BYTES: the size of the oversized body (default 2 MiB; the server's limit is 1 MiB).
-- LT_KINDS: a comma-separated list of kind names to send (default all, below).
dofile(os.getenv("LT_DIR") .. "/common.lua")

local EVERY = tonumber(os.getenv("LT_HOSTILE_EVERY") or "20")
local BIG = tonumber(os.getenv("LT_BIG_BYTES") or tostring(2 * 1024 * 1024))

-- name, the body (a function, so the main state does not build the large ones), the status, and a Lua
-- pattern the error message must match.
KINDS = {
  {"invalid-json", function() return '{"text": "play Khalid"' end, 400, "the body is not JSON"},
  {"invalid-utf8", function() return '{"text": "pl\255\254y Kh\192\175alid \237\160\128"}' end, 400, "not UTF%-8"},
  {"unknown-key", function() return '{"text": "play Khalid", "volume": 11}' end, 400, "unknown key \\\"volume\\\""},
  {"unknown-locale", function() return '{"text": "play Khalid", "locale": "xx-YY"}' end, 400, "unknown locale"},
  {"text-3000-chars", function() return '{"text": "' .. string.rep("play ", 600) .. '"}' end, 413, "3000 characters"},
  {"big-body", function() return '{"text": "' .. string.rep("x", BIG - 13) .. '"}' end, 413, "the body is over"},
  {"empty-body", function() return "" end, 400, "the body is not JSON"},
  {"json-array", function() return '["play Khalid"]' end, 400, "must be a JSON object"},
  {"nested-10000", function() return string.rep("[", 10000) .. string.rep("]", 10000) end, 400, "the body is not JSON"},
  {"wrong-type-text", function() return '{"text": 42}' end, 400, "\\\"text\\\" must be a string"},
  {"wrong-type-texts", function() return '{"texts": "play Khalid"}' end, 400, "\\\"texts\\\" must be an array"},
  {"wrong-type-alternatives", function() return '{"text": "play Khalid", "alternatives": "2"}' end, 400, "\\\"alternatives\\\" must be"},
  {"alternatives-21", function() return '{"text": "play Khalid", "alternatives": 21}' end, 400, "\\\"alternatives\\\" must be"},
  {"texts-1001", function() return '{"texts": [' .. string.rep('"pause",', 1000) .. '"pause"]}' end, 413, "the limit is 1000"},
}
-- LT_KINDS="big-body,nested-10000": only these kinds (to find which one a problem comes from).
if (os.getenv("LT_KINDS") or "") ~= "" then
  local wanted, kept = "," .. os.getenv("LT_KINDS") .. ",", {}
  for _, kind in ipairs(KINDS) do
    if wanted:find("," .. kind[1] .. ",", 1, true) then table.insert(kept, kind) end
  end
  assert(#kept > 0, "LT_KINDS names no kind")
  KINDS = kept
end
for k = 1, #KINDS do
  table.insert(COUNTERS, "hsent" .. k)
  table.insert(COUNTERS, "hok" .. k)
end
table.insert(COUNTERS, "hostile_sent")
table.insert(COUNTERS, "hostile_ok")

local reqs, hreqs, index_of, i, n, h = {}, {}, {}, 0, 0, 0

function init(args)
  reset_counters()
  for k = 1, N do
    reqs[k] = post('{"text":' .. texts[k] .. '}')
    index_of[expected[k] .. "\n"] = k
  end
  for k, kind in ipairs(KINDS) do hreqs[k] = post(kind[2]()) end
  i = (id * 431) % N
  h = id % #KINDS
end

function request()
  n = n + 1
  if n % EVERY == 0 then
    h = h % #KINDS + 1
    expect("h" .. h)
    hostile_sent = hostile_sent + 1
    _G["hsent" .. h] = _G["hsent" .. h] + 1
    return hreqs[h]
  end
  i = i % N + 1
  expect(i)
  sent = sent + 1
  return reqs[i]
end

function response(status, headers, body)
  if status == 200 then return check_good(status, body, index_of[body]) end
  if status >= 400 and status < 500 and body:sub(1, 10) == '{"error":"' then
    for k, kind in ipairs(KINDS) do
      if kind[3] == status and body:find(kind[4]) and consume("h" .. k) then
        hostile_ok = hostile_ok + 1
        _G["hok" .. k] = _G["hok" .. k] + 1
        return
      end
    end
  end
  note("no request of this thread waits for this answer", status, body)
end

local common_done = done
function done(summary, latency, requests)
  common_done(summary, latency, requests)
  for k, kind in ipairs(KINDS) do
    io.write(string.format("LT kind %s %d %d %d\n", kind[1], kind[3], TOTALS["hsent" .. k], TOTALS["hok" .. k]))
  end
end

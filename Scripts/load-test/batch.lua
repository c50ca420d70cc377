-- wrk script: LT_BATCH (default 32) consecutive utterances per request, {"texts": [...]}, cycling through
-- the utterances. With LT_CHECK=1, every response must be "[" .. the CLI's lines joined by "," .. "]".
dofile(os.getenv("LT_DIR") .. "/common.lua")

local B = tonumber(os.getenv("LT_BATCH") or "32")
local reqs, index_of, b = {}, {}, 0

function init(args)
  reset_counters()
  -- The distinct batches: batch k holds utterances (k-1)*B+1 ... k*B, wrapping around, until a batch
  -- would start at the first utterance again.
  local start = 0
  repeat
    local t, e = {}, {}
    for j = 0, B - 1 do
      local u = (start + j) % N + 1
      t[#t + 1] = texts[u]
      e[#e + 1] = expected[u]
    end
    reqs[#reqs + 1] = post('{"texts":[' .. table.concat(t, ",") .. ']}')
    index_of["[" .. table.concat(e, ",") .. "]\n"] = #reqs
    start = (start + B) % N
  until start == 0
  b = (id * 97) % #reqs
  if not CHECK then response = nil end
end

function request()
  b = b % #reqs + 1
  sent = sent + 1
  if CHECK then expect(b) end
  return reqs[b]
end

function response(status, headers, body)
  check_good(status, body, index_of[body])
end

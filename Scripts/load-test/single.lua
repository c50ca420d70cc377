-- wrk script: one utterance per request, {"text": "..."}, cycling through the utterances (each thread
-- starts at a different place). With LT_CHECK=1, every response must be the CLI's line for its utterance.
dofile(os.getenv("LT_DIR") .. "/common.lua")

local reqs, index_of, i = {}, {}, 0

function init(args)
  reset_counters()
  for k = 1, N do
    reqs[k] = post('{"text":' .. texts[k] .. '}')
    index_of[expected[k] .. "\n"] = k
  end
  i = (id * 431) % N
  if not CHECK then response = nil end
end

function request()
  i = i % N + 1
  sent = sent + 1
  if CHECK then expect(i) end
  return reqs[i]
end

function response(status, headers, body)
  check_good(status, body, index_of[body])
end

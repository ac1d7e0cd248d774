-- POST bot-played logs to /api/clubs/CLUB/matches/ with a token, each log once:
-- `wrk -t T -c T -s uploads.lua URL -- TOKEN UPLOADS_FILE THREADS RESULTS_PREFIX`.
-- UPLOADS_FILE has "CLUB FILE" a line; thread ID sends lines ID, ID + T, ID + 2T, ...
-- in order (seed.py writes them so that with T = 4 each thread is one ladder's stream).
-- Every answer is written down (RESULTS_PREFIX-ID.txt: status, match id, content hash,
-- error code): check.py matches answers to logs by content hash (wrk may call request()
-- ahead of sending, so the order of requests is not a reliable key). A thread stops
-- when its share of logs is sent.
package.path = package.path .. ";bench/load/?.lua"
require("common")

local token, uploads, sent, results

function init(args)
   token = args[1]
   local all = read_lines(args[2])
   local stride = tonumber(args[3])
   uploads = {}
   for i = id, #all, stride do
      local club, path = all[i]:match("^(%S+) (.+)$")
      table.insert(uploads, {club = club, path = path})
   end
   sent = 0
   results = io.open(string.format("%s-%d.txt", args[4], id), "w")
end

function request()
   if sent >= #uploads then
      wrk.thread:stop()
   end
   local upload = uploads[sent % #uploads + 1]
   sent = sent + 1
   local handle = io.open(upload.path, "rb")
   local body = handle:read("*a")
   handle:close()
   return wrk.format("POST", "/api/clubs/" .. upload.club .. "/matches/", {
      ["Authorization"] = "Token " .. token,
      ["Content-Type"] = "application/json",
      ["Accept"] = "application/json",
   }, body)
end

function response(status, headers, body)
   count_status(status)
   local match_id = body:match('"id":(%d+)') or "-"
   local hash = body:match('"content_hash":"(%x+)"') or "-"
   local error_code = body:match('"error":"([%w_]+)"') or "-"
   results:write(string.format("%d %s %s %s\n", status, match_id, hash, error_code))
   results:flush()
end

function done(summary, latency, requests)
   report("upload", summary, latency)
end

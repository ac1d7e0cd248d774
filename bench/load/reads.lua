-- GET the URLs of one file (bench/load/var paths-*.txt), each thread from its own
-- random start: `wrk -s reads.lua URL -- NAME PATHS_FILE`.
package.path = package.path .. ";bench/load/?.lua"
require("common")

local paths, next_index

function init(args)
   endpoint = args[1]  -- global: done() reads it from the first thread
   paths = read_lines(args[2])
   math.randomseed(id * 7919)
   next_index = math.random(#paths)
end

function request()
   next_index = next_index % #paths + 1
   -- As a browser asks: gzip accepted (replay frames are kept gzipped and sent as they are).
   return wrk.format("GET", paths[next_index], {["Accept"] = "application/json",
                                                ["Accept-Encoding"] = "gzip"})
end

-- No response(): wrk then skips handing every body to Lua; it counts answers >= 400
-- itself (summary.errors.status, reported as "http_errors").

function done(summary, latency, requests)
   report(nil, summary, latency)
end

-- Shared by reads.lua and uploads.lua: per-thread status counts, and one JSON line of
-- figures at the end ("RESULT {...}") that run.sh collects.
local threads = {}
local counter = 0

function setup(thread)
   counter = counter + 1
   thread:set("id", counter)
   table.insert(threads, thread)
end

statuses = {}

function count_status(status)
   local key = tostring(status)
   statuses[key] = (statuses[key] or 0) + 1
end

function read_lines(path)
   local lines = {}
   for line in io.lines(path) do
      if line ~= "" then table.insert(lines, line) end
   end
   return lines
end

function report(name, summary, latency)
   name = name or (threads[1] and threads[1]:get("endpoint")) or "?"
   local merged = {}
   for _, thread in ipairs(threads) do
      local counts = thread:get("statuses") or {}
      for status, n in pairs(counts) do merged[status] = (merged[status] or 0) + n end
   end
   local parts = {}
   for status, n in pairs(merged) do table.insert(parts, string.format('"%s": %d', status, n)) end
   local seconds = summary.duration / 1e6
   local e = summary.errors
   io.write(string.format(
      'RESULT {"endpoint": "%s", "requests": %d, "seconds": %.2f, "per_second": %.1f, ' ..
      '"p50_ms": %.2f, "p95_ms": %.2f, "p99_ms": %.2f, "max_ms": %.2f, ' ..
      '"socket_errors": %d, "timeouts": %d, "http_errors": %d, "statuses": {%s}}\n',
      name, summary.requests, seconds, summary.requests / seconds,
      latency:percentile(50) / 1000, latency:percentile(95) / 1000,
      latency:percentile(99) / 1000, latency.max / 1000,
      e.connect + e.read + e.write, e.timeout, e.status, table.concat(parts, ", ")))
end

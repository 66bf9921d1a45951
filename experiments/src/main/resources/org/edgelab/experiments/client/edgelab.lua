-- EdgeLab's script for wrk and wrk2 (org.edgelab.experiments.client.WrkTool fills in the constants for
-- one run). It sends the cell's requests from plan files that the runner wrote from the descriptor's
-- workload (none for a single object: every request is then wrk's URL, wrk's fastest path), optionally
-- counts X-Cache hits and 4xx/5xx responses, and when wrk is done writes its figures as one JSON
-- object: requests, duration, bytes, errors, the latency at each of LEVELS (microseconds) and the
-- /proc/self/stat line that holds wrk's own CPU time.

local OUT = @OUT@              -- the JSON file done() writes
local PLAN = @PLAN@            -- thread t reads PLAN.t, "path first last fresh" per line; nil: no plan
local LEVELS = @LEVELS@        -- percentiles to report, ascending
local SAMPLE_COUNT = @SAMPLE_COUNT@   -- wrk2: #latency is the number of samples; wrk: it is not
local X_CACHE = @X_CACHE@

local threads = {}

function setup(thread)
   thread:set("tid", #threads)
   table.insert(threads, thread)
end

if PLAN then
   local plan, fresh_head, fresh_tail, n, i, pass = {}, {}, {}, 0, 0, 0

   -- Thread t sends the lines of PLAN.t, its block of the plan. Requests are put together here, once, by
   -- concatenation: init must be quick, because wrk2's duration starts before its threads are set up.
   function init(args)
      local host = wrk.headers["Host"]
      local file = PLAN .. "." .. tid
      for line in io.lines(file) do
         local path, first, last, fresh = line:match("^(%S+) (%-?%d+) (%-?%d+) ([01])$")
         assert(path, "bad line in " .. file .. ": " .. line)
         local head = "GET " .. path
         local tail = " HTTP/1.1\r\nHost: " .. host .. "\r\n"
            .. (first ~= "-1" and ("Range: bytes=" .. first .. "-" .. last .. "\r\n") or "") .. "\r\n"
         n = n + 1
         plan[n] = head .. tail
         if fresh == "1" then
            fresh_head[n] = head
            fresh_tail[n] = tail
         end
      end
      assert(n > 0, "no request in " .. file)
   end

   -- After its last line a thread starts its block again, and a request for a never-seen object then
   -- names another one (suffix -w<pass>), so it stays a first-time request.
   function request()
      i = i + 1
      if i > n then
         i = 1
         pass = pass + 1
      end
      if pass > 0 and fresh_head[i] then
         return fresh_head[i] .. "-w" .. pass .. fresh_tail[i]
      end
      return plan[i]
   end
end

if X_CACHE then
   responses, hits, body_bytes, hit_bytes, status_4xx, status_5xx = 0, 0, 0, 0, 0, 0

   function response(status, headers, body)
      responses = responses + 1
      local length = body and #body or 0
      body_bytes = body_bytes + length
      local x = headers["X-Cache"] or headers["x-cache"]
      if x and x:sub(1, 3) == "HIT" then
         hits = hits + 1
         hit_bytes = hit_bytes + length
      end
      if status >= 500 then
         status_5xx = status_5xx + 1
      elseif status >= 400 then
         status_4xx = status_4xx + 1
      end
   end
end

local function whole(x)
   return string.format("%.0f", x)
end

function done(summary, latency, requests)
   local out = {}
   local function add(s)
      out[#out + 1] = s
   end
   local e = summary.errors
   add('{"requests":' .. whole(summary.requests) .. ',"duration_us":' .. whole(summary.duration)
      .. ',"bytes":' .. whole(summary.bytes))
   add(',"errors":{"connect":' .. whole(e.connect) .. ',"read":' .. whole(e.read) .. ',"write":' .. whole(e.write)
      .. ',"status":' .. whole(e.status) .. ',"timeout":' .. whole(e.timeout) .. '}')
   local count = SAMPLE_COUNT and #latency or summary.requests
   add(',"latency_us":{"count":' .. whole(count))
   if count > 0 and latency.max > 0 then
      add(',"min":' .. whole(latency.min) .. ',"max":' .. whole(latency.max)
         .. ',"mean":' .. string.format("%.3f", latency.mean) .. ',"percentiles":[')
      for k, p in ipairs(LEVELS) do
         add((k > 1 and "," or "") .. "[" .. string.format("%.9g", p) .. "," .. whole(latency:percentile(p)) .. "]")
      end
      add("]")
   end
   add("}")
   if X_CACHE then
      local sum = { responses = 0, hits = 0, body_bytes = 0, hit_bytes = 0, status_4xx = 0, status_5xx = 0 }
      for _, thread in ipairs(threads) do
         for name, _ in pairs(sum) do
            sum[name] = sum[name] + thread:get(name)
         end
      end
      add(',"x_cache":{"responses":' .. whole(sum.responses) .. ',"hits":' .. whole(sum.hits)
         .. ',"body_bytes":' .. whole(sum.body_bytes) .. ',"hit_bytes":' .. whole(sum.hit_bytes)
         .. ',"status_4xx":' .. whole(sum.status_4xx) .. ',"status_5xx":' .. whole(sum.status_5xx) .. '}')
   end
   local stat = io.open("/proc/self/stat")
   if stat then
      local line = stat:read("*l")
      stat:close()
      add(',"proc_stat":"' .. (line:gsub('[\\"]', '\\%0')) .. '"')
   end
   add("}\n")
   local f = assert(io.open(OUT, "w"))
   f:write(table.concat(out))
   f:close()
end

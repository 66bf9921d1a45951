#!/usr/bin/env python3
"""Side-by-side HTTP benchmark of EdgeLab's cache server and nginx, driven by wrk and/or EdgeLab's loadgen, on loopback.

Starts an EdgeLab origin, copies the benchmark objects from it into a directory that nginx serves
(so both servers send the same bytes under the same URL), starts the cache (memory engine) and
warms it, then for each object size runs wrk against each server in turn (interleaved, `--runs`
times) and records req/s, MB/s, latency p50/p99 and each server's CPU seconds per GB served
(read from /proc/<pid>/stat around each run). Prints a Markdown table of medians and writes every
run to a CSV. Loopback only. Needs wrk and nginx (apt-get install wrk nginx-light).

  scripts/bench-servers.py --sizes 100KiB,10MiB --duration 15 --runs 3 --connections 100
  scripts/bench-servers.py --clients wrk,edgelab     # the load generator beside wrk, same servers, same run
  scripts/bench-servers.py --servers origin --origin-query first-byte-delay=20ms --clients wrk,edgelab
      # the origin itself, answering after a known delay: both clients then make the same load
      # (the delay, not the client, sets req/s), so their latency percentiles can be compared
  scripts/bench-servers.py --clients wrk2,edgelab --rate 4000 --duration 30
      # latency at one fixed arrival rate: wrk2 (-R, corrected for coordinated omission) beside
      # `edgelab load --rate` (open loop, latency from each request's intended start); wrk2 is not a
      # Debian package: build it from github.com/giltene/wrk2 and pass --wrk2 PATH

For the edgelab client, client CPU is the loadgen's own process CPU over the measured run (it
excludes JVM start-up); for wrk it is wrk's whole process. Both verify nothing but lengths,
except that edgelab checks every body byte against the origin's content function.
"""
import argparse, csv, os, re, shutil, signal, statistics, subprocess, sys, tempfile, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TICK = os.sysconf("SC_CLK_TCK")
UNITS = {"": 1, "b": 1, "kb": 1000, "mb": 1000**2, "gb": 1000**3, "k": 1024, "kib": 1024,
         "m": 1024**2, "mib": 1024**2, "g": 1024**3, "gib": 1024**3}


def parse_size(text):
    m = re.fullmatch(r"\s*([0-9.]+)\s*([a-zA-Z]*)\s*", text)
    return int(float(m.group(1)) * UNITS[m.group(2).lower()])


def cpu_seconds(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime + stime
        except FileNotFoundError:
            pass
    return total / TICK


def wait_http(url, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except Exception:
            time.sleep(0.2)
    raise SystemExit(f"bench: {url} did not answer within {timeout}s")


def nginx_pids(pidfile):
    with open(pidfile) as f:
        master = f.read().strip()
    children = subprocess.run(["pgrep", "-P", master], capture_output=True, text=True).stdout.split()
    return [master] + children


def parse_summary(out):
    """Reads the figures the clients print in wrk's format: req/s, bytes read, p50, p90 and p99 (wrk2 prints 50.000%)."""
    def latency(label):
        m = re.search(rf"^\s*{label}(?:\.0+)?%\s+([0-9.]+)(us|ms|s|m)\b", out, re.M)
        return float(m.group(1)) * {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}[m.group(2)]
    m = re.search(r"(\d+) requests in [0-9.]+\w+, ([0-9.]+)(B|KB|MB|GB|TB) read", out)
    read_bytes = float(m.group(2)) * {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3, "TB": 1024**4}[m.group(3)]
    return {"req_per_s": float(re.search(r"Requests/sec:\s+([0-9.]+)", out).group(1)), "bytes_read": read_bytes,
            "p50_ms": latency("50"), "p90_ms": latency("90"), "p99_ms": latency("99"), "raw": out}


def wrk(url, connections, threads, duration, timeout, binary="wrk", rate=None):
    out = subprocess.run([binary, f"-t{threads}", f"-c{connections}", f"-d{duration}s", "--timeout", f"{timeout}s",
                          "--latency"] + ([f"-R{rate}"] if rate else []) + [url],
                         capture_output=True, text=True, check=True).stdout
    r = parse_summary(out)
    errors = re.search(r"Socket errors: (.*)", out)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    r.update(socket_errors=errors.group(1) if errors else "", non2xx=int(non2xx.group(1)) if non2xx else 0)
    return r


def edgelab_load(url, connections, threads, duration, timeout, rate=None, warmup=0):
    out = subprocess.run([os.path.join(ROOT, "edgelab"), "load", url, f"-c{connections}", f"-t{threads}",
                          f"-d{duration}s", "--timeout", f"{timeout}s", "--latency"] + (["--rate", str(rate)] if rate else [])
                         + ([f"--warmup", f"{warmup}s"] if warmup else []),
                         capture_output=True, text=True, check=True).stdout
    r = parse_summary(out)
    errors = re.search(r"Errors:\s*(.*)", out)
    r.update(socket_errors=errors.group(1) if errors else "", non2xx=0,
             client_cpu_s=float(re.search(r"Client CPU:\s+([0-9.]+)s process", out).group(1)))
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="100KiB,10MiB")
    ap.add_argument("--duration", type=int, default=15, help="seconds per wrk run")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--connections", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2, help="wrk threads")
    ap.add_argument("--cache-memory", default="1g")
    ap.add_argument("--cache-java-opts", default="")
    ap.add_argument("--cache-io-threads", default="0", help="the cache's --io-threads (0: its default)")
    ap.add_argument("--nginx-workers", default="auto")
    ap.add_argument("--clients", default="wrk", help="comma-separated: wrk, wrk2, edgelab")
    ap.add_argument("--servers", default="edgelab-memory,nginx",
                    help="comma-separated: edgelab-memory (the cache), nginx, origin (EdgeLab's origin, directly)")
    ap.add_argument("--origin-query", default="",
                    help="query string for the origin's URLs, e.g. first-byte-delay=20ms&rate=6MB (per response)")
    ap.add_argument("--rate", type=int, default=None,
                    help="fixed arrival rate (req/s) for wrk2 and edgelab (open loop); wrk refuses it")
    ap.add_argument("--edgelab-warmup", type=int, default=0,
                    help="seconds of unrecorded load before edgelab's measured run (wrk2 always calibrates ~10 s first)")
    ap.add_argument("--wrk2", default=shutil.which("wrk2") or "/tmp/wrk2/wrk", help="path of the wrk2 binary")
    ap.add_argument("--csv", default=os.path.join(ROOT, "results", "bench-servers.csv"))
    args = ap.parse_args()
    if args.rate and "wrk" in args.clients.split(","):
        raise SystemExit("bench: wrk has no fixed rate; with --rate use --clients wrk2,edgelab")
    if "wrk2" in args.clients.split(",") and not args.rate:
        raise SystemExit("bench: wrk2 needs --rate")
    if "wrk2" in args.clients.split(",") and not os.access(args.wrk2, os.X_OK):
        raise SystemExit(f"bench: no wrk2 at {args.wrk2}: build github.com/giltene/wrk2 and pass --wrk2 PATH")
    for tool in ("wrk", "nginx"):
        if not shutil.which(tool) and not os.path.exists(f"/usr/sbin/{tool}"):
            raise SystemExit(f"bench: {tool} is missing: apt-get install {'wrk' if tool == 'wrk' else 'nginx-light'}")

    subprocess.run([os.path.join(ROOT, "edgelab"), "--version"], check=True, stdout=subprocess.DEVNULL)
    work = tempfile.mkdtemp(prefix="edgelab-bench-")
    os.chmod(work, 0o755)  # nginx workers run as an unprivileged user and must reach the files
    procs = []
    try:
        origin_port, cache_port, nginx_port = 18181, 18180, 18182
        procs.append(subprocess.Popen([os.path.join(ROOT, "edgelab"), "origin", "--port", str(origin_port)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT))
        wait_http(f"http://127.0.0.1:{origin_port}/objects/1/probe")
        sizes = [parse_size(s) for s in args.sizes.split(",")]
        paths = {}
        for size in sizes:
            path = f"/objects/{size}/bench"
            os.makedirs(os.path.join(work, "www", "objects", str(size)), exist_ok=True)
            urllib.request.urlretrieve(f"http://127.0.0.1:{origin_port}{path}", os.path.join(work, "www" + path))
            paths[size] = path
        conf = os.path.join(work, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""worker_processes {args.nginx_workers};
pid {work}/nginx.pid;
error_log {work}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  sendfile on; tcp_nopush on; tcp_nodelay on;
  keepalive_requests 1000000; keepalive_timeout 60s;
  open_file_cache max=1000 inactive=60s;
  default_type application/octet-stream;
  client_body_temp_path {work}/tmp; proxy_temp_path {work}/tmp; fastcgi_temp_path {work}/tmp;
  uwsgi_temp_path {work}/tmp; scgi_temp_path {work}/tmp;
  server {{ listen 127.0.0.1:{nginx_port}; root {work}/www; }}
}}
""")
        os.makedirs(os.path.join(work, "tmp"), exist_ok=True)
        nginx_bin = shutil.which("nginx") or "/usr/sbin/nginx"
        subprocess.run([nginx_bin, "-c", conf], check=True)
        for size in sizes:
            with urllib.request.urlopen(f"http://127.0.0.1:{nginx_port}{paths[size]}") as check:
                if len(check.read()) != size:
                    raise SystemExit(f"bench: nginx served a wrong length for {paths[size]}")
        env = dict(os.environ, EDGELAB_JAVA_OPTS=args.cache_java_opts)
        cache = subprocess.Popen([os.path.join(ROOT, "edgelab"), "serve", "--port", str(cache_port),
                                  "--origin", f"http://127.0.0.1:{origin_port}", "--memory", args.cache_memory,
                                  "--io-threads", args.cache_io_threads],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=env)
        procs.append(cache)
        wait_http(f"http://127.0.0.1:{cache_port}{paths[sizes[0]]}")
        for size in sizes:
            for _ in range(2):  # fetch twice: the first is the miss that stores it
                urllib.request.urlopen(f"http://127.0.0.1:{cache_port}{paths[size]}").read()
        java_pid = subprocess.run(["pgrep", "-P", str(cache.pid)], capture_output=True, text=True).stdout.split()
        cache_pids = [str(cache.pid)] + java_pid
        origin_pids = [str(procs[0].pid)] + subprocess.run(["pgrep", "-P", str(procs[0].pid)], capture_output=True,
                                                           text=True).stdout.split()
        known = {"edgelab-memory": (cache_port, lambda: cache_pids),
                 "nginx": (nginx_port, lambda: nginx_pids(os.path.join(work, "nginx.pid"))),
                 "origin": (origin_port, lambda: origin_pids)}
        unknown = [n for n in args.servers.split(",") if n not in known]
        if unknown:
            raise SystemExit(f"bench: unknown server(s) {unknown}; choose from {list(known)}")
        servers = {n: known[n] for n in args.servers.split(",")}
        rows = []
        clients = args.clients.split(",")
        for size in sizes:
            for run in range(1, args.runs + 1):
                for (name, (port, pids)), client in [(s, c) for s in servers.items() for c in clients]:
                    url = f"http://127.0.0.1:{port}{paths[size]}"
                    if name == "origin" and args.origin_query:
                        url += "?" + args.origin_query
                    wrk(url, args.connections, args.threads, 2, 10)  # short warm-up of the server
                    before = cpu_seconds(pids())
                    if client in ("wrk", "wrk2"):
                        proc_before = os.times()
                        r = wrk(url, args.connections, args.threads, args.duration, 10,
                                binary=args.wrk2 if client == "wrk2" else "wrk", rate=args.rate)
                        proc_after = os.times()
                        r["client_cpu_s"] = (proc_after.children_user + proc_after.children_system
                                             - proc_before.children_user - proc_before.children_system)
                    else:
                        r = edgelab_load(url, args.connections, args.threads, args.duration, 10, rate=args.rate,
                                         warmup=args.edgelab_warmup)
                    cpu = cpu_seconds(pids()) - before
                    gb = r["bytes_read"] / 1e9
                    row = {"server": name, "client": client, "size_bytes": size, "run": run, "connections": args.connections,
                           "duration_s": args.duration, "req_per_s": r["req_per_s"],
                           "rate": args.rate or "", "mb_per_s": r["bytes_read"] / 1e6 / args.duration,
                           "p50_ms": r["p50_ms"], "p90_ms": r["p90_ms"], "p99_ms": r["p99_ms"],
                           "server_cpu_s": round(cpu, 2), "cpu_s_per_gb": round(cpu / gb, 3) if gb else None,
                           "client_cpu_s": round(r["client_cpu_s"], 2),
                           "client_cpu_s_per_gb": round(r["client_cpu_s"] / gb, 3) if gb else None,
                           "socket_errors": r["socket_errors"], "non2xx": r["non2xx"]}
                    rows.append(row)
                    print(f"{name:15} {client:8} {size:>9} B run {run}: {row['req_per_s']:>9.0f} req/s {row['mb_per_s']:>8.0f} MB/s "
                          f"p50 {row['p50_ms']:.2f} ms p90 {row['p90_ms']:.2f} ms p99 {row['p99_ms']:.2f} ms server cpu {row['cpu_s_per_gb']} s/GB "
                          f"client cpu {row['client_cpu_s_per_gb']} s/GB "
                          f"{row['socket_errors']} non2xx={row['non2xx']}", flush=True)
        os.makedirs(os.path.dirname(args.csv), exist_ok=True)
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)
        print(f"\nMedians of {args.runs} runs, {args.connections} connections, wrk -t{args.threads}, {args.duration}s each "
              f"(all runs in {args.csv}):\n")
        print("| object | server | client | req/s | MB/s | p50 ms | p90 ms | p99 ms | server CPU s/GB | client CPU s/GB |")
        print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
        for size in sizes:
            for name in servers:
                for client in clients:
                    rs = [r for r in rows if r["server"] == name and r["size_bytes"] == size and r["client"] == client]
                    med = lambda k: statistics.median(r[k] for r in rs)
                    print(f"| {size} B | {name} | {client} | {med('req_per_s'):.0f} | {med('mb_per_s'):.0f} | "
                          f"{med('p50_ms'):.2f} | {med('p90_ms'):.2f} | {med('p99_ms'):.2f} | {med('cpu_s_per_gb'):.3f} | {med('client_cpu_s_per_gb'):.3f} |")
        if "edgelab" in clients and len(clients) > 1:
            base = [c for c in clients if c != "edgelab"][0]
            keys = ["req_per_s", "client_cpu_s_per_gb", "p50_ms", "p90_ms", "p99_ms"]
            print(f"\nedgelab load / {base}, median of per-run ratios (runs in brackets):\n")
            print("| object | server | " + " | ".join(keys) + " |")
            print("|---|---|" + "---:|" * len(keys))
            for size in sizes:
                for name in servers:
                    cells = []
                    for k in keys:
                        ratios = []
                        for run in range(1, args.runs + 1):
                            pick = lambda c: next(r for r in rows if r["server"] == name and r["size_bytes"] == size
                                                  and r["client"] == c and r["run"] == run)
                            a, b = pick("edgelab")[k], pick(base)[k]
                            if a is not None and b:
                                ratios.append(a / b)
                        cells.append(f"{statistics.median(ratios):.2f}x ({', '.join(f'{x:.2f}' for x in ratios)})" if ratios else "")
                    print(f"| {size} B | {name} | " + " | ".join(cells) + " |")
    finally:
        pidfile = os.path.join(work, "nginx.pid")
        if os.path.exists(pidfile):
            subprocess.run([shutil.which("nginx") or "/usr/sbin/nginx", "-c", os.path.join(work, "nginx.conf"), "-s", "stop"])
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

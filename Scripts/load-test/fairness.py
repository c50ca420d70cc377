#!/usr/bin/env python3
"""Per-connection fairness of `mediaparse serve`: CONNECTIONS keep-alive connections each send requests
back to back for SECONDS; prints the requests each connection got through, and the latency percentiles.
A fair server gives every connection about the same count.

Usage: fairness.py PORT [CONNECTIONS=64] [SECONDS=10] [BATCH=32] [UTTERANCES=Benchmarks/en-US.txt]
       (BATCH 0: single requests, {"text": ...})
"""
import asyncio, json, os, sys, time

port = int(sys.argv[1])
conns = int(sys.argv[2]) if len(sys.argv) > 2 else 64
secs = float(sys.argv[3]) if len(sys.argv) > 3 else 10
batch = int(sys.argv[4]) if len(sys.argv) > 4 else 32
path = sys.argv[5] if len(sys.argv) > 5 else os.path.join(os.path.dirname(__file__), "../../Benchmarks/en-US.txt")
utts = open(path, encoding="utf-8").read().split("\n")[:-1]


def body(i):
    if batch == 0:
        return json.dumps({"text": utts[i % len(utts)]}).encode()
    return json.dumps({"texts": [utts[(i + j) % len(utts)] for j in range(batch)]}).encode()


async def connection(k, latencies):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    end, i = time.monotonic() + secs, k * 37
    while time.monotonic() < end:
        b = body(i)
        i += max(batch, 1)
        start = time.monotonic()
        writer.write(b"POST /parse HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(b), b))
        head = await reader.readuntil(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            raise SystemExit(f"connection {k}: {head.splitlines()[0]!r}")
        length = next(int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:"))
        await reader.readexactly(length)
        latencies.append(time.monotonic() - start)
    writer.close()


async def main():
    latencies = [[] for _ in range(conns)]
    await asyncio.gather(*(connection(k, latencies[k]) for k in range(conns)))
    counts = sorted(len(l) for l in latencies)
    every = sorted(x for l in latencies for x in l)
    pct = lambda p: every[min(len(every) - 1, int(len(every) * p))] * 1e3
    print(f"{conns} connections, {'batches of %d' % batch if batch else 'single requests'}, {secs:g} s: "
          f"{len(every)} requests, {len(every) / secs:.0f}/s")
    print(f"requests per connection: min {counts[0]}, median {counts[len(counts) // 2]}, max {counts[-1]} "
          f"(max/min {counts[-1] / max(counts[0], 1):.1f})")
    print(f"latency: p50 {pct(.5):.1f} ms, p90 {pct(.9):.1f} ms, p99 {pct(.99):.1f} ms, max {every[-1] * 1e3:.1f} ms")


asyncio.run(main())

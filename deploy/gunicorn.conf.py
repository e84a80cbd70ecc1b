"""gunicorn settings: ``gunicorn -c deploy/gunicorn.conf.py jokeren.wsgi``.

Workers: sync worker processes (one request at a time each), twice the cores plus one. A
move POST spends much of its time waiting, not computing: on PostgreSQL, and above all on
its commit's WAL flush (``fsync``, about 8 ms on the benchmark machine's disk against a
few ms of CPU for the whole move), so with one worker per core the cores idle while each
worker waits. More processes than cores keep the CPU busy during those waits; threads in
one process (``GUNICORN_THREADS`` > 1, the gthread worker) did worse in
``benchmarks/load.py`` (the GIL and the thread worker's own overhead), so the default is
one thread. benchmarks/README.md at 566f5bf, "The move POST under load", has the figures."""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = 30
max_requests = 2000
max_requests_jitter = 200
accesslog = "-"
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")

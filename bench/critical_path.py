#!/usr/bin/env python3
"""Where one apply's time went, from its debug log (NEONFORM_LOG=debug: a line
a request, stamped when its answer came, with its duration), beside a file
X.times holding the run's start and end (seconds since the epoch), as
bench/one_run.sh and bench/concurrent_runs.sh (LOGS=DIR) keep them.

    bench/critical_path.py LOG...

One line a log, in milliseconds:
  start      process start to the first request sent
  reads      first request sent to the last answer before the first change
  to-write   the last answer of the plan's reads (endpoints, branches) to the
             first change sent: the lock, the state, the checks, and any
             read of operations before it
  spread     first change sent to the last project's first change sent
  poll-late  a project's first poll sent, less its change's answer and the
             operation's 2 s (median/max): the schedule's 1/32 margin is 62 ms
  end        last answer to the process's end
and the requests it sent. These do not move with the machine's load the way
walls do (a process's start and end do).
"""
import datetime
import re
import statistics
import sys

LINE = re.compile(r'^(\S+Z) \[DEBUG\] api: (\S+) (\S+) (\d+) ([\d.]+)(ms|s|µs)')
UNIT = {'ms': 1e-3, 's': 1.0, 'µs': 1e-6}
OPERATION = 2.0


def requests(log):
    out = []
    for line in open(log, errors='replace'):
        m = LINE.match(line)
        if not m:
            continue
        end = datetime.datetime.strptime(m.group(1), '%Y-%m-%dT%H:%M:%S.%fZ').replace(
            tzinfo=datetime.timezone.utc).timestamp()
        path = m.group(3).split('?')[0]
        out.append(dict(end=end, start=end - float(m.group(5)) * UNIT[m.group(6)], method=m.group(2), path=path,
                        project=path.split('/')[2] if path.startswith('/projects/') else ''))
    return sorted(out, key=lambda r: r['start'])


def figures(log):
    t0, t1 = (float(x) for x in open(log[:-len('.log')] + '.times').read().split())
    reqs = requests(log)
    writes = [r for r in reqs if r['method'] != 'GET']
    first = min(w['start'] for w in writes)
    before = [r for r in reqs if r['method'] == 'GET' and r['end'] <= first]
    plan = [r for r in before if not r['path'].endswith('/operations')]
    late = []
    for w in writes:
        polls = [r for r in reqs if r['method'] == 'GET' and r['project'] == w['project']
                 and r['start'] > w['end'] + OPERATION / 4]
        if polls:
            late.append(polls[0]['start'] - w['end'] - OPERATION)
    ms = lambda x: '%.0f' % (x * 1000)
    return [('start', ms(reqs[0]['start'] - t0)),
            ('reads', ms(max(r['end'] for r in before) - reqs[0]['start']) if before else '-'),
            ('to-write', ms(first - max(r['end'] for r in plan)) if plan else '-'),
            ('spread', ms(max(w['start'] for w in writes) - first)),
            ('poll-late', ms(statistics.median(late)) + '/' + ms(max(late)) if late else '-'),
            ('end', ms(t1 - max(r['end'] for r in reqs))),
            ('requests', str(len(reqs))), ('wall', '%.2f s' % (t1 - t0))]


for log in sys.argv[1:]:
    print(log + ': ' + '  '.join('%s %s' % f for f in figures(log)))

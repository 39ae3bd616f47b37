#!/usr/bin/env python3
"""resimulate.py FILE DIR NARWHAL...: a simulator change against a held-out validation's kept
real rounds, without running anything on hardware.

`narwhal validate FILE --out DIR` keeps each calibration (DIR/NAME.xml, DIR/NAME.json) and the
real and simulated times (DIR/validation.csv). This simulates every configuration of FILE again
on its kept calibration with each NARWHAL binary (builds of two commits, say: a worktree of the
one before a change), as validate does (one rank without bytes, several with), and prints each
configuration's error under each build, then per build the median, p95 and max |error|, how
many are within max(12%, their rounds' spread), and the pairs the hardware tells apart that
the simulation orders alike (p95 as validate takes it: nearest rank). The real side is the
CSV's: only the simulator moves. Where the CSV has a configuration's anchor (the machine's
kernels around its best round against the calibration's model), its CPU kernels are stretched
by it as validate does (platform property rt_kernel_scale, in DIR/resimulated/NAME.xml).
"""
import csv
import json
import math
import os
import statistics
import subprocess
import sys


def die(msg):
    print('resimulate: ' + msg, file=sys.stderr)
    sys.exit(2)


def scaled_platform(d, cal, anchor):
    """The calibration's platform with its CPU hosts' kernels stretched by anchor, under the
    calibration's file name (its model is labelled with it)."""
    cpu = '<prop id="kind" value="cpu"/>'
    text = open(os.path.join(d, cal['name'] + '.xml')).read()
    if cpu not in text:
        die('%s.xml: no CPU host' % cal['name'])
    os.makedirs(os.path.join(d, 'resimulated'), exist_ok=True)
    path = os.path.join(d, 'resimulated', cal['name'] + '.xml')
    with open(path, 'w') as f:
        f.write(text.replace(cpu, cpu + '<prop id="rt_kernel_scale" value="%.9g"/>' % anchor))
    return path


def simulate(nw, d, cal, conf, anchor=None):
    xml = (scaled_platform(d, cal, anchor) if anchor is not None
           else os.path.join(d, cal['name'] + '.xml'))
    cmd = [nw, 'run', '--backend', 'sim', '--platform', xml,
           '--perfmodel', os.path.join(d, cal['name'] + '.json'), '--nodes', str(cal['ranks'])]
    if cal['ranks'] == 1 and '--data' not in conf['args']:
        cmd += ['--data', 'phantom']
    out = subprocess.run(cmd + conf['args'] + ['--json'], capture_output=True, text=True)
    if out.returncode != 0:
        die('%s: %s' % (conf['name'], (out.stderr.strip().splitlines() or ['failed'])[-1]))
    return json.loads(out.stdout)['makespan_s']


def main():
    if len(sys.argv) < 4:
        die('usage: scripts/resimulate.py FILE DIR NARWHAL...')
    path, d, builds = sys.argv[1], sys.argv[2], sys.argv[3:]
    try:
        spec = json.load(open(path))
    except (OSError, ValueError) as e:
        die('%s: %s' % (path, e))
    try:
        rows = list(csv.DictReader(open(os.path.join(d, 'validation.csv'))))
    except OSError as e:
        die(str(e))
    try:
        confs = {c['name']: c for c in spec['configurations']}
        cals = {c['name']: c for c in spec['calibrations']}
        for c in confs.values():
            cals[c['calibration']]['ranks'], c['args']
    except (KeyError, TypeError) as e:
        die('%s: not a validation file (%s missing)' % (path, e))
    for r in rows:
        if not {'configuration', 'group', 'real_s', 'spread'} <= r.keys():
            die('%s: not a validation.csv' % os.path.join(d, 'validation.csv'))
    for nw in builds:
        if not os.access(nw, os.X_OK):
            die(nw + ': not an executable')
    err = {nw: [] for nw in builds}
    sim = {nw: [] for nw in builds}  # the simulated seconds themselves: equal ones are a tie
    for r in rows:
        if r['configuration'] not in confs:
            die('%s: configuration %s is not in %s' % (d, r['configuration'], path))
        c = confs[r['configuration']]
        real = float(r['real_s'])
        line = '%-44s real %.4f' % (c['name'][:44], real)
        anchor = 1 + float(r['anchor']) if r.get('anchor') else None
        for nw in builds:
            sim[nw].append(simulate(nw, d, cals[c['calibration']], c, anchor))
            e = sim[nw][-1] / real - 1
            err[nw].append(e)
            line += '  %+6.1f%%' % (100 * e)
        print(line)
    groups = {}
    for i, r in enumerate(rows):
        if r['group']:
            groups.setdefault(r['group'], []).append(i)
    for nw in builds:
        a = sorted(abs(e) for e in err[nw])
        n = len(a)
        within = sum(abs(e) <= max(0.12, float(r['spread'])) for e, r in zip(err[nw], rows))
        told = alike = 0
        for idx in groups.values():
            for x in range(len(idx)):
                for y in range(x + 1, len(idx)):
                    i, j = idx[x], idx[y]
                    ri, rj = float(rows[i]['real_s']), float(rows[j]['real_s'])
                    if abs(ri - rj) > max(float(rows[i]['spread']) * ri,
                                          float(rows[j]['spread']) * rj):
                        told += 1
                        alike += (sim[nw][i] - sim[nw][j]) * (ri - rj) > 0
        print('%s: median %.1f%%, p95 %.1f%%, max %.1f%%, %d of %d within max(12%%, spread), '
              'pairs told apart %d, ordered alike %d' %
              (nw, 100 * statistics.median(a), 100 * a[max(0, math.ceil(0.95 * n - 1e-9) - 1)],
               100 * a[-1], within, n, told, alike))


if __name__ == '__main__':
    try:
        main()
    except BrokenPipeError:
        pass

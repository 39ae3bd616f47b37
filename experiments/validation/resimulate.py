#!/usr/bin/env python3
"""resimulate.py VALIDATE_OUT [CAL_DIR] [-v]: the simulated half of `narwhal validate` again,
against the real rounds a validate run already measured (VALIDATE_OUT/validation.csv), on the
calibration in CAL_DIR (default VALIDATE_OUT: its 1rank/2ranks .xml and .json), and on variants
of its platforms with the event loop's spin modelled otherwise:
  as-calibrated          the platform as `narwhal calibrate` wrote it
  budget-share           rt_spin the real loop's 500 us budget, rt_spin_share as measured
  old-spin               rt_spin 500 us, no rt_spin_share (the spin takes the loop's weight)
  mean-spin-full-weight  rt_spin as measured, no rt_spin_share
Prints median, p95 and max |error| and how many are within max(12%, own spread) per variant
(-v: every configuration). Run from the repository root after a build (build/narwhal)."""
import csv, json, os, re, statistics, subprocess, sys, tempfile

args = [a for a in sys.argv[1:] if a != '-v']
if not args:
    sys.exit(__doc__)
val = args[0]
cal_dir = args[1] if len(args) > 1 else val
held = 'experiments/validation/held-out.json'


def no_share(t):
    return re.sub(r'<prop id="rt_spin_share" value="[^"]*"/>', '', t)


def budget(t):
    return re.sub(r'<prop id="rt_spin" value="[^"]*"/>', '<prop id="rt_spin" value="0.0005"/>', t)


variants = {'as-calibrated': lambda t: t, 'budget-share': budget,
            'old-spin': lambda t: budget(no_share(t)), 'mean-spin-full-weight': no_share}
cfg = json.load(open(held))
cal = {c['name']: c for c in cfg['calibrations']}
rows = list(csv.DictReader(open(os.path.join(val, 'validation.csv'))))
real = {r['configuration']: float(r['real_s']) for r in rows}
spread = {r['configuration']: float(r['spread']) for r in rows}
for vname, edit in variants.items():
    d = tempfile.mkdtemp(prefix='resim-' + vname + '-')
    errs, lines, within = [], [], 0
    for c in cfg['configurations']:
        cn = c['calibration']
        with open(os.path.join(cal_dir, cn + '.xml')) as f:
            xml = f.read()
        with open(os.path.join(d, cn + '.xml'), 'w') as f:
            f.write(edit(xml))
        model = os.path.join(d, cn + '.json')  # a model names its platform's file: same name
        if not os.path.exists(model):
            with open(os.path.join(cal_dir, cn + '.json')) as f, open(model, 'w') as g:
                g.write(f.read())
        cmd = ['build/narwhal', 'run', '--backend', 'sim', '--platform', os.path.join(d, cn + '.xml'),
               '--perfmodel', model, '--nodes', str(cal[cn]['ranks'])] + c['args'] + ['--json']
        out = subprocess.run(cmd, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit('resimulate: %s failed: %s' % (c['name'], out.stderr.strip()))
        s = json.loads(out.stdout)['makespan_s']
        e = s / real[c['name']] - 1
        errs.append(abs(e))
        within += abs(e) <= max(0.12, spread[c['name']])
        lines.append('   %-40s real %.4f s  simulated %.4f s  %+.1f%%' % (c['name'], real[c['name']], s, 100 * e))
    errs.sort()
    p95 = errs[min(len(errs) - 1, int(round(0.95 * (len(errs) - 1))))]
    print('%-22s median %.1f%%  p95 %.1f%%  max %.1f%%  within max(12%%, spread): %d of %d' %
          (vname, 100 * statistics.median(errs), 100 * p95, 100 * errs[-1], within, len(errs)))
    if '-v' in sys.argv:
        print('\n'.join(lines))

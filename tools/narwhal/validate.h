/* validate.h: `narwhal validate FILE`: how well the simulator predicts runs it was not
 * calibrated on.
 *
 *   narwhal validate FILE [--out DIR] [--rounds N] [--recalibrate]
 *
 * 1. Each calibration of FILE (validate_file.h) is measured with `narwhal calibrate` under
 *    mpirun (its ranks), into DIR/NAME.xml and DIR/NAME.json, unless both exist already (and
 *    --recalibrate is not given); its output goes to DIR/calibrate-NAME.log.
 * 2. Held out: each configuration is simulated once with phantom data and --calibrate on, into
 *    a model of its own; if any (kind, device, footprint) it runs is one its calibration
 *    measured, the file is refused with one line (exit 2): a configuration the model was fitted
 *    on says nothing about prediction.
 * 3. Every configuration runs on the real backend, round after round over the whole set
 *    (A, B, C, A, B, C, ...: the machine's noise spreads over all of them); the best of the
 *    rounds is kept, and their spread, (max - min) / best, is that configuration's noise. The
 *    runs read the calibration's model (--perfmodel), as the simulation does: dmda decides
 *    from the same numbers, and each run's kernels are compared with the model's prediction.
 * 4. Each is simulated on its calibration's platform and model.
 * 5. A table: configuration, group, real s, spread, simulated s, error, subtasks the model could
 *    not time, the best round's kernels against the model (measured / predicted - 1), and
 *    their wall time beyond their CPU time (validate_wall.h); then the median, p95 and largest
 *    |error|, and the median of the kernels' difference; per group, Kendall's tau between the
 *    real and simulated orders, whether the winner is the same, and the pairs the hardware
 *    tells apart (their difference larger than both spreads) that the simulation orders alike.
 *    DIR/validation.csv (the table, and every real round's time: rounds_s), and with gnuplot
 *    DIR/validation.png (simulated against real, one point per configuration, log-log, with the
 *    diagonal and the 10% band).
 * Bad input: one line, exit 2; a run that fails: one line naming it and its log, exit 1. */
#ifndef NW_TOOL_VALIDATE_H
#define NW_TOOL_VALIDATE_H

int validate_main(int argc, char **argv);

#endif

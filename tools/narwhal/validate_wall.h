/* validate_wall.h: from a real run's --json output, how long its CPU kernels held their devices
 * (wall time) beyond the CPU time they used: what they waited for a core, or for pages the host
 * had to back, which a kernel's CPU time (the calibration's measure) does not show. A device is
 * busy from a subtask's launch until its completion is handled, so the hand-offs count too.
 * `narwhal validate` prints it per configuration, for the best real round, so that a miss can be
 * told apart as kernels slower than the model (its kernels column) or as kernels held up (this
 * one). Unit-tested in tests/unit/test_validate_wall.c. */
#ifndef NW_TOOL_VALIDATE_WALL_H
#define NW_TOOL_VALIDATE_WALL_H

/* The CPU devices' busy_s summed over kernels_measured_s, less one; NAN where the two do not
 * compare like with like: output that does not parse, no kernel time, the model timing fewer
 * subtasks than ran (kernels_compared < subtasks), or a GPU device that ran subtasks (a GPU
 * kernel's measured time is its wall time already). */
double validate_wall_over_cpu(const char *json);

#endif

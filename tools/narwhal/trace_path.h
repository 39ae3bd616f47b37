/* trace_path.h: `narwhal critical-path TRACE.json [--top N]`: where a traced run's time went
 * along its critical path, and what each kind of protocol message cost, from a Chrome trace
 * written by --trace (lib/trace_json.h).
 *
 * The path is walked backwards from the last thing the trace records: a subtask's execution
 * leads back to its launch on the same node, a message to its sending on the sender's node,
 * and from any point on a node the walk goes on from the latest execution or message that
 * ended there before it (each used once); the time in between is the node's own work and its
 * threads' hand-offs ("on node N, between events"). Waiting for a reason the trace does not
 * record (a kernel sharing a core, a thread off its core) shows as that gap or inside the
 * span that waited. Latest-predecessor walks of this kind are the usual critical-path
 * heuristic for traces of message-passing programs; where two causes end together the walk
 * takes one, so the path is one plausible chain, not a proof. The segments add up to the
 * traced length exactly.
 *
 * Prints two tables: the path's segments grouped by what they are (count, total ms, share of
 * the traced length, median us), largest first, and every message type between every pair of
 * nodes (count, median, 90th percentile, max us: send to handling, README "Traces"). */
#ifndef NW_TOOL_TRACE_PATH_H
#define NW_TOOL_TRACE_PATH_H

/* argv: what follows "critical-path". 0 printed; 1 out of memory; 2 bad input (one line). */
int trace_path_main(int argc, char **argv);

#endif

/* randprog_ref.h: the serial reference of a random program (randprog_ref.c). */
#ifndef NW_APP_RANDPROG_REF_H
#define NW_APP_RANDPROG_REF_H

#include "randprog_gen.h"

/* Runs task k of p on state[s], the bytes of program space s, in place. */
nw_status rp_ref_task(const rp_program *p, int k, unsigned char *const *state);

#endif

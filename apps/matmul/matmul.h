/* matmul.h: the matrix multiplication application (paper Fig. 1). */
#ifndef NW_APP_MATMUL_H
#define NW_APP_MATMUL_H

#include "narwhal_app.h"

extern const nw_task_kind nw_matmul_kind;
extern const nw_app nw_matmul_app;

#endif

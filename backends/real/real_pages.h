/* real_pages.h: what touching a new page costs this process: the fault that maps it and the
 * kernel's zeroing (a subtask's new private view, core/device/bufpool.h). `narwhal calibrate`
 * writes it as rt_page_fresh (backends/simgrid/sim_costs.h). */
#ifndef NW_REAL_PAGES_H
#define NW_REAL_PAGES_H

/* Seconds per 4 KiB page first touched: the median of three rounds, each a new 4 MiB anonymous
 * mapping touched once per page (about 6 ms in all on the 2-core test machine); 0 where no
 * mapping can be made. */
double real_page_first_touch_s(void);

#endif

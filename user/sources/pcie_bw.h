/* SPDX-License-Identifier: MIT */
/*
 * PCIe throughput of amdgpu GPUs, sampled in the background by the
 * exporter and read by its scrapes.
 *
 * amdgpu's pcie_bw (Documentation/gpu/amdgpu, amdgpu_pm.c) counts the
 * PCIe messages the GPU received and sent over one second and gives them
 * with the link's maximum payload size: "count0 count1 mps". A read takes
 * that second (the driver sleeps in it) and resumes a runtime-suspended
 * GPU (it takes a runtime PM reference). So it is never read while
 * answering a scrape: a thread reads each registered GPU's file every
 * interval, one after the other, and a scrape takes the last sample. A
 * sleeping GPU's file is not read. The estimate is count x mps bytes per
 * second each way, an upper bound (a message may carry less than mps).
 */
#ifndef NAVIBENCH_PCIE_BW_H
#define NAVIBENCH_PCIE_BW_H

#include <stdbool.h>

/*
 * nb_pcie_bw_start() - start the sampler thread, reading every interval_ms
 * (as the devices' files allow: each read takes a second). Returns 0, or
 * -1 after saying why on stderr. Signals should be blocked by the caller
 * first, as the thread inherits its mask.
 */
int nb_pcie_bw_start(unsigned long interval_ms);

/* nb_pcie_bw_stop() - stop it and wait for it (a read in progress ends first). */
void nb_pcie_bw_stop(void);

/*
 * nb_pcie_bw_get() - the last sample of the GPU whose PCI device is at
 * sysdev: bytes per second received (rx) and sent (tx). False while the
 * sampler is not running (it never is outside the exporter), before the
 * first sample, when the GPU has no pcie_bw, slept at the last sample, or
 * when the sample is older than two intervals. The first call for a
 * device registers it, and the sampler reads it at once.
 */
bool nb_pcie_bw_get(const char *sysdev, double *rx, double *tx);

#endif /* NAVIBENCH_PCIE_BW_H */

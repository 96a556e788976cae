/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plain C view of what the pcieaudit module reports. Filled by decode.c and
 * pcinames.c, read by the output code; nothing here knows about netlink.
 */
#ifndef PA_MODEL_H
#define PA_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A PCI function's address, as in PCIEAUDIT_A_ADDR_*. */
struct pa_addr {
	uint32_t domain;
	uint8_t bus;
	uint8_t devfn;
};

/* ACS extended capability registers, raw. */
struct pa_acs {
	uint16_t pos;
	uint16_t cap;
	uint16_t ctrl;
	/* The control register when the module loaded; older modules and the
	 * sysfs reader cannot tell. */
	bool has_ctrl_at_load;
	uint16_t ctrl_at_load;
};

/* PCIe link registers, raw. LNKCAP2 is not kept: nothing reports it. */
struct pa_link {
	uint32_t lnkcap;
	uint16_t lnksta;
	bool has_lnkctl2;
	uint16_t lnkctl2;
};

/* One standard BAR as the kernel's resource has it, PCIEAUDIT_A_BAR_*. */
struct pa_bar {
	uint8_t index;			/* 0-5 */
	uint64_t size;			/* bytes */
	uint32_t flags;			/* enum pcieaudit_bar_flag */
	bool resizable;			/* the rebar registers were read */
	uint32_t rebar_cap;		/* bit n+4: 2^n MB supported */
	uint32_t rebar_ctrl;		/* bits 13:8: current size, 2^n MB */
	/* Where it is placed: the kernel's placement where the source has
	 * it (sysfs's resource, the address lspci printed), else the BAR
	 * register; never a VF's register, which reads 0 (SR-IOV), so a VF
	 * without the kernel's answer has none. The module does not send
	 * it. */
	bool has_start;
	uint64_t start;
};

#define PA_MAX_BARS 6

/* Enum fields hold UAPI values; 0 means the kernel left the attribute out. */
struct pa_iommu {
	uint32_t group;
	uint32_t domain;		/* enum pcieaudit_domain_type */
	uint32_t def_domain;		/* enum pcieaudit_domain_type */
	uint32_t def_domain_source;	/* enum pcieaudit_source */
	char *instance;			/* NULL when not recorded */
	uint32_t dma_owner;		/* enum pcieaudit_dma_owner */
};

/* Whether a device's AER counters were read (aer.h); NOT_READ for sources
 * that do not look (older snapshots) and for conventional PCI. */
enum pa_aer_state {
	PA_AER_NOT_READ = 0,
	PA_AER_KNOWN,
	PA_AER_UNKNOWN,		/* reason says why */
};

/* AER error counters since boot, from sysfs: totals of each severity and,
 * for root ports, the totals of the messages they received. */
/* Severities of the AER counters, in the order of the aer_dev_* files. */
enum pa_aer_severity {
	PA_AER_SEV_COR,
	PA_AER_SEV_NONFATAL,
	PA_AER_SEV_FATAL,
	PA_AER_NSEV
};

/* One "NAME COUNT" line of an aer_dev_* file, as the kernel wrote it: a
 * name of its tables ("RxErr"), an unnamed bit ("dev_cor_errs_bit[9]"), or
 * a name this CLI does not know (known false), kept all the same. */
struct pa_aer_type {
	char name[28];
	uint8_t severity;		/* enum pa_aer_severity */
	bool known;
	uint64_t count;
};

/* 16 correctable and 2 x 32 uncorrectable bits: every line a kernel prints. */
#define PA_AER_MAX_TYPES 80

struct pa_aer {
	uint32_t state;			/* enum pa_aer_state */
	char reason[96];		/* PA_AER_UNKNOWN: why */
	uint64_t cor, nonfatal, fatal;
	bool has_rootport;
	uint64_t rp_cor, rp_nonfatal, rp_fatal;
	/* By type, where the source had them (sysfs; snapshots since 0.2). */
	size_t ntypes;
	struct pa_aer_type types[PA_AER_MAX_TYPES];
	size_t unknown_names;		/* types[] whose known is false */
};

/* What the module's sampler saw of a link since it began tracking the
 * function, PCIEAUDIT_A_HIST_*; times are CLOCK_REALTIME ns. */
struct pa_link_history {
	uint64_t since_ns;
	uint64_t transitions;
	uint64_t below_ns;		/* up below what both ends support */
	uint64_t last_change_ns;	/* 0: no transition */
	bool has_min;			/* the link was seen up */
	uint8_t min_speed;		/* LnkSta speed encoding */
	uint8_t min_width;
	uint32_t interval_ms;
	uint64_t unsampled_ns;		/* not read: no time accrued */
	uint32_t skip;			/* enum pcieaudit_hist_skip; 0: read */
};

/* Why lspci text left a function's capabilities unknown. */
enum pa_caps_hidden {
	PA_CAPS_SHOWN,
	PA_CAPS_NOT_PRINTED,		/* lspci -v, without -vv's registers */
	PA_CAPS_ACCESS_DENIED,		/* lspci run without root */
};

/*
 * What VFIO passthrough needs of a function beyond isolation: its reset
 * methods, SR-IOV resources and PCIe Device Capabilities 2. From sysfs and
 * configuration space, never from the module; known is false where the
 * source did not look, and then every field is unknown. Tri-state ints
 * are -1 unknown, 0 no, 1 yes (pa_passthru_init()).
 */
struct pa_passthru {
	bool known;
	/* sysfs reset_method (5.15+): "flr bus", "" for none; NULL when
	 * the file is absent (an older kernel) or the source has none. */
	char *reset_method;
	int reset_file;			/* sysfs "reset" exists */
	int no_soft_reset;		/* PMCSR No_Soft_Reset; -1 without PM */
	int af_flr;			/* Advanced Features capability's FLR */
	bool has_devcap2;
	uint32_t devcap2;		/* Device Capabilities 2, raw */
	uint16_t devctl2;		/* Device Control 2, raw */
	/* The SR-IOV capability, as the PF's registers hold it. */
	bool has_sriov;
	uint16_t total_vfs, initial_vfs, num_vfs;
	uint16_t vf_offset, vf_stride;
	int sysfs_num_vfs;		/* sriov_numvfs; -1 unknown */
	/* The VF BARs: -1 unknown, 0 one left without space, 1 assigned
	 * or none. */
	int vf_bars_assigned;
	uint32_t vf_bar_sizes_mask;	/* VF BARs with a size (resource) */
};

/* A known passthru with every fact unknown. */
void pa_passthru_init(struct pa_passthru *pt);

struct pa_device {
	struct pa_addr addr;
	uint16_t vendor;
	uint16_t device;
	uint16_t subsys_vendor;
	uint16_t subsys_device;
	uint32_t class;			/* 24 bits: base, sub, prog-if */
	uint8_t revision;
	uint32_t flags;			/* enum pcieaudit_dev_flag */
	int pcie_type;			/* PCI_EXP_TYPE_*, -1 for conventional PCI */
	int32_t numa_node;		/* -1 when unknown */
	char *driver;			/* NULL when unbound */
	/* The source cannot tell the driver (lspci -xxxx without -v). */
	bool driver_unknown;

	bool has_upstream;
	struct pa_addr upstream;
	/* The root bus of the host bridge above, where the source names it
	 * (sysfs's "pciDDDD:BB"): it holds even when bridges between are
	 * missing from the input. devfn is 0. */
	bool has_root_bus;
	struct pa_addr root_bus;
	bool has_pf;
	struct pa_addr pf;
	bool has_secondary_bus;
	uint8_t secondary_bus;
	bool has_acs;
	struct pa_acs acs;
	bool has_link;
	struct pa_link link;
	bool has_iommu;
	struct pa_iommu iommu;
	/* PMCSR as the function reports it, enum pcieaudit_power_state; 0
	 * when absent: no PM capability, an older module, sysfs. */
	uint32_t power_state;
	/* Configuration space read all ones (D3cold or gone): ACS and link
	 * are then unknown, not absent, though has_acs and has_link are
	 * false. Older modules and snapshots never set it. */
	bool config_unreadable;
	/* Not in the input at all: a bridge that lspci -t drew above captured
	 * functions. config_unreadable is set too: nothing of it is known
	 * but its address and bus range. Never from the module. */
	bool config_not_captured;
	/* The input held the 256 bytes of standard configuration space of
	 * a PCIe function, not its extended space (lspci -xxx, a truncated
	 * copy): ACS and SR-IOV are then unknown, not absent. The module
	 * and full captures never set it. */
	bool no_extended_config;
	/* lspci text that did not print the capabilities' registers, enum
	 * pa_caps_hidden: why ACS, link, ATS and device control are unknown.
	 * Kept in snapshots, so a snapshot of such a capture says why too. */
	uint32_t caps_unknown;
	/* From sysfs, never from the module. */
	struct pa_aer aer;
	/* From the module's sampler; older modules and sysfs have none. */
	bool has_history;
	struct pa_link_history history;

	/* ATS, device control and BARs: only from modules that send them
	 * (caps_known). Without caps_known, or with config_unreadable, a
	 * false has_ats or has_expdev means unknown, not absent. */
	bool caps_known;
	bool has_ats;
	uint16_t ats_cap;
	uint16_t ats_ctrl;		/* bit 15: Enable */
	bool has_expdev;
	uint32_t devcap;		/* Device Capabilities, raw */
	uint16_t devctl;		/* Device Control, raw */
	struct pa_bar bars[PA_MAX_BARS];
	size_t nbars;
	/* caps_known, but the source gave no BAR sizes (lspci -xxxx without
	 * lspci -v's sizes, a sysfs copy without resource files): the BARs
	 * are unknown, not none. The module never sets it. */
	bool bars_unknown;

	/* The device's own memory as its driver reports it (NVML for NVIDIA,
	 * KFD for AMD), for the BAR rule; 0 is unknown. The PCI facts never
	 * set it: whoever reads NVML or KFD does. */
	uint64_t mem_bytes;

	/* Reset, SR-IOV and DevCap2 for VFIO (check's vfio profile). */
	struct pa_passthru pt;
	/* The module sent pt's registers and SR-IOV facts (unknown when
	 * config_unreadable); its reset methods are sysfs's alone. */
	bool pt_from_module;
	/* The module's key for them (PCIEAUDIT_A_PASSTHRU_RESET_METHODS):
	 * functions with one non-zero key read the same reset_method. */
	bool has_reset_key;
	uint64_t reset_key;

	/* From pci.ids, not from the kernel; NULL when unknown. */
	char *vendor_name;
	char *device_name;
	char *class_name;
};

/* Why dev's ACS, or its link registers, are unknown: NULL when they are
 * known (present or absent). */
/* The reason, "not_printed" or "access_denied" as snapshots spell it
 * (NULL for PA_CAPS_SHOWN or a value this CLI does not know), and back (0
 * for a name it does not know). */
const char *pa_caps_hidden_reason(uint32_t why);
const char *pa_caps_hidden_name(uint32_t why);
uint32_t pa_caps_hidden_value(const char *name);

const char *pa_device_acs_unknown(const struct pa_device *dev);
const char *pa_device_link_unknown(const struct pa_device *dev);

/* Problems of the input that do not stop a report: a function whose
 * parent bridge is missing, a link that could not be read. Each line names
 * the function and what is missing. */
struct pa_warnings {
	char **text;
	size_t n;
};

struct pa_group {
	uint32_t id;
	struct pa_addr *members;
	size_t nmembers;
	uint32_t other_members;
};

struct pa_info {
	char *module_version;
	char *kernel_release;
	uint32_t features;		/* enum pcieaudit_feature */
	uint32_t iommu_def_mode;	/* enum pcieaudit_iommu_mode, 0 if absent */
	uint32_t iommu_strict;		/* enum pcieaudit_iommu_strict, 0 if absent */
	uint32_t device_count;
	uint32_t group_count;
	/* The kernel whose P2P DMA rules the module's own analysis models,
	 * "Linux X.Y"; NULL from a module that does not say, or sysfs. */
	char *p2p_rules;
	/* The source cannot see IOMMU groups, their domains or the IOMMU's
	 * mode (an lspci dump): all are unknown, not absent. */
	bool iommu_unknown;
};

/*
 * What info can say of a report read without the module (info --input,
 * --sysfs, --lspci): each field the source does not give is printed as
 * unknown with why, never as a value. The module knows them all.
 */
struct pa_info_source {
	const char *kind;	/* "snapshot", "sysfs", "lspci", "sosreport" */
	const char *path;
	const char *why;	/* why the rest is unknown: "not in an lspci capture" */
	bool module_known;	/* module_version and p2p_rules */
	bool kernel_known;	/* kernel_release */
	bool features_known;	/* the module's build features */
	bool iommu_mode_known;	/* IOMMU present, its default mode, strictness */
	bool groups_known;	/* group_count */
	/* The host's kernel command line, NULL when the input has none. */
	const char *cmdline;
};

/* Where a report came from; check and snapshots keep it. */
enum pa_host_source {
	PA_SOURCE_MODULE = 1,	/* the kernel module */
	PA_SOURCE_SYSFS,	/* sysfs and configuration space, no module */
	PA_SOURCE_LSPCI,	/* an lspci -xxxx dump or a sosreport */
};

/*
 * Facts about the host beside its PCI functions, which check needs and a
 * snapshot carries: read from /proc and /sys, never from the module.
 * Unknown values are NULL or -1.
 */
struct pa_host {
	uint32_t source;		/* enum pa_host_source, 0 if unknown */
	char *cmdline;			/* /proc/cmdline, without the newline */
	int numa_nodes;			/* online NUMA nodes */
	char *cpu_vendor;		/* vendor_id: GenuineIntel, AuthenticAMD */
	int cpu_family;			/* cpu family, as the kernel's x86 */
	int hypervisor;			/* 1 in a VM (cpuinfo flag), 0 not */
	/* The ACPI table describing an IOMMU: "DMAR" (VT-d), "IVRS" (AMD-Vi),
	 * "VIOT" (virtio-iommu), or "none". */
	char *iommu_table;
	/* Interrupt remapping (enum pa_intremap) and what says so: a
	 * /proc/interrupts chip, a kernel log line; NULL when unknown. */
	uint32_t intremap;
	char *intremap_how;
	/* vfio_iommu_type1's allow_unsafe_interrupts (PA_INTREMAP_ON: Y,
	 * PA_INTREMAP_OFF: N); 0 when the module is not loaded. */
	uint32_t allow_unsafe;
	/* vfio_pci's ids parameter where sysfs shows it; NULL otherwise
	 * (the kernel command line's vfio-pci.ids= is in cmdline). */
	char *vfio_pci_ids;
};

/* Interrupt remapping and allow_unsafe_interrupts; 0 is unknown. */
enum pa_intremap {
	PA_INTREMAP_UNKNOWN = 0,
	PA_INTREMAP_ON,
	PA_INTREMAP_OFF,
};

/* pa_host's cpu_vendor values (cpuinfo's vendor_id). */
#define PA_CPU_INTEL	"GenuineIntel"
#define PA_CPU_AMD	"AuthenticAMD"
#define PA_CPU_HYGON	"HygonGenuine"

/* PCI functions in the order the kernel sent them: order carries meaning
 * (hops run upwards, redirects in the kernel's parameter order). */
struct pa_addr_list {
	struct pa_addr *addrs;
	size_t n;
};

/*
 * One provider/client pair of a P2P reply, PCIEAUDIT_A_PAIR_*. Enum fields
 * hold UAPI values as received: a value newer than this CLI stays as it is
 * and is printed as unknown.
 */
struct pa_p2p_pair {
	struct pa_addr provider;
	struct pa_addr client;
	uint32_t kernel_status;		/* enum pcieaudit_p2p_kernel */
	bool has_kernel_distance;	/* only when the kernel answered */
	int32_t kernel_distance;	/* -1: the kernel refuses */
	/* enum pcieaudit_p2p_agreement of the two distances: set exactly
	 * when the kernel answered (derived where the module predates it). */
	uint32_t agreement;
	int32_t distance;		/* pcieaudit's own; -1: not supported */
	uint32_t path_length;
	uint32_t map;			/* enum pcieaudit_p2p_map */
	uint32_t path;			/* enum pcieaudit_p2p_path */
	uint32_t host_rule;		/* enum pcieaudit_p2p_host_rule */
	bool has_common;
	struct pa_addr common;
	struct pa_addr_list hops_provider;	/* from the provider up */
	struct pa_addr_list hops_client;	/* from the client up */
	struct pa_addr_list redirect;
	bool has_host_bridge_provider;
	uint32_t host_bridge_provider;	/* vendor << 16 | device */
	bool has_host_bridge_client;
	uint32_t host_bridge_client;
};

/* The pairs of one P2P do reply, or collected from a P2P dump. */
struct pa_p2p {
	/* pci_p2pdma_distance_many() over all clients: do replies only. */
	bool has_kernel_distance;
	int32_t kernel_distance;
	struct pa_p2p_pair *pairs;
	size_t npairs;
	size_t cap;		/* room in pairs (pa_p2p_add(), pa_p2p_take()) */
};

struct pa_fabric;

struct pa_report {
	struct pa_info info;
	struct pa_device *devices;
	size_t ndevices;
	struct pa_group *groups;
	size_t ngroups;
	/* devices are in address order (pa_report_sort()): lookups bisect. */
	bool devices_sorted;
	/* P2P answers among some devices; has_p2p is false when they were not
	 * asked for or the module does not give them. */
	bool has_p2p;
	struct pa_p2p p2p;
	/* Set for reports meant for check: report --json and check itself. */
	bool has_host;
	struct pa_host host;
	/* What the source found wrong or missing in its input. */
	struct pa_warnings warnings;
	/* NVLink, XGMI and GPUDirect software (fabric.h); NULL when not read:
	 * the module's report, a snapshot. pa_report_clear() frees it. */
	struct pa_fabric *fabric;
	/* An earlier report of the same host, for rules over time (check
	 * --previous); not owned, NULL when none. */
	const struct pa_report *previous;
};

bool pa_addr_eq(const struct pa_addr *a, const struct pa_addr *b);

/* Functions of one device: the same domain, bus and device number. */
bool pa_addr_same_slot(const struct pa_addr *a, const struct pa_addr *b);

void pa_device_clear(struct pa_device *dev);
void pa_group_clear(struct pa_group *group);
void pa_info_clear(struct pa_info *info);
/* enum pcieaudit_p2p_agreement of a pair's two distances; 0 when the
 * kernel did not answer. */
uint32_t pa_p2p_agreement_of(const struct pa_p2p_pair *p);
/* The map type of the verdict: pcieaudit's own, unless the kernel answered
 * otherwise: its refusal is NOT_SUPPORTED, and its consent to what the
 * model refused can only have come from the host-bridge rule. */
uint32_t pa_p2p_verdict_map(const struct pa_p2p_pair *p);

/* The module says the kernel has no CONFIG_IOMMU_API. Reports read
 * without the module (no version) know nothing of the build. */
bool pa_info_iommu_not_built(const struct pa_info *info);
void pa_host_clear(struct pa_host *host);
void pa_report_clear(struct pa_report *rep);
void pa_report_clear_devices(struct pa_report *rep);
void pa_report_clear_groups(struct pa_report *rep);

/* Append by moving: on success the report owns what *dev or *group held. */
int pa_report_add_device(struct pa_report *rep, struct pa_device *dev);
/* A new, empty device at the end, to fill in place (a function is 4 KiB):
 * NULL when out of memory. The last one goes again, cleared, through
 * pa_report_drop_last_device(). Growth keeps its doubling either way. */
struct pa_device *pa_report_new_device(struct pa_report *rep);
void pa_report_drop_last_device(struct pa_report *rep);
int pa_report_add_group(struct pa_report *rep, struct pa_group *group);
/* Appends @more's members to @to, whose continuation it is (a group dump
 * message of the same id), and takes its other_members; empties @more. */
int pa_group_append(struct pa_group *to, struct pa_group *more);

/* Builds rep->groups (which must be empty) from the devices' own group
 * numbers, for sources without a group list: sysfs, some snapshots. */
int pa_report_groups_from_devices(struct pa_report *rep);

/* Orders devices by address, groups by id and group members by address. */
void pa_report_sort(struct pa_report *rep);

/* Drops the groups that hold none of the report's devices. */
void pa_report_keep_groups_of_devices(struct pa_report *rep);

const struct pa_device *pa_report_find(const struct pa_report *rep,
				       const struct pa_addr *addr);

/* The IOMMU group of dev in the report, or NULL (none, or not listed). */
const struct pa_group *pa_report_group_of(const struct pa_report *rep,
					  const struct pa_device *dev);

/* The bridge above dev in the report, or NULL. Walks up with it must bound
 * their steps by rep->ndevices: corrupt links can form a cycle. */
const struct pa_device *pa_report_upstream(const struct pa_report *rep,
					   const struct pa_device *dev);

/* Orders PCI addresses as the kernel does: domain, bus, devfn. */
int pa_addr_cmp(const struct pa_addr *a, const struct pa_addr *b);

__attribute__((format(printf, 2, 3)))
int pa_warn(struct pa_warnings *w, const char *fmt, ...);
void pa_warnings_clear(struct pa_warnings *w);
/* Appends what *from holds to *to, leaving *from empty; 0 or -ENOMEM. */
int pa_warnings_move(struct pa_warnings *to, struct pa_warnings *from);

void pa_addr_list_clear(struct pa_addr_list *list);
int pa_addr_list_add(struct pa_addr_list *list, const struct pa_addr *addr);

void pa_p2p_pair_clear(struct pa_p2p_pair *pair);
void pa_p2p_clear(struct pa_p2p *p2p);

/* Moves every pair of *from to the end of *to; *from is left empty. */
/* Appends *pair, which the list then owns; -ENOMEM leaves it to the caller.
 * Room doubles: a topo matrix adds thousands of pairs one at a time. */
int pa_p2p_add(struct pa_p2p *p2p, struct pa_p2p_pair *pair);
int pa_p2p_take(struct pa_p2p *to, struct pa_p2p *from);

/* Orders pairs by (provider, client), as a dump sends them, for find. */
void pa_p2p_sort(struct pa_p2p *p2p);

/* The pair for provider and client in a sorted set, or NULL. */
const struct pa_p2p_pair *pa_p2p_find(const struct pa_p2p *p2p,
				      const struct pa_addr *provider,
				      const struct pa_addr *client);

#endif /* PA_MODEL_H */

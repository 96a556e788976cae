// SPDX-License-Identifier: GPL-2.0
#include "text_out.h"
#include "text_caps.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "abi_names.h"
#include "acs.h"
#include "aer.h"
#include "bdf.h"
#include "cmdline.h"
#include "link.h"
#include "link_history.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NONE SIZE_MAX

/* Tree drawing: every level adds one of these 3-character pieces. */
#define BRANCH		"+- "
#define LAST_BRANCH	"\\- "
#define PIPE		"|  "
#define BLANK		"   "
#define STEP		3

static const char *or_text(const char *s, const char *fallback)
{
	return s ? s : fallback;
}

static const char *type_label(const struct pa_device *dev)
{
	static const char *const labels[] = {
		[PCI_EXP_TYPE_ENDPOINT]		= "Endpoint",
		[PCI_EXP_TYPE_LEG_END]		= "Legacy Endpoint",
		[PCI_EXP_TYPE_ROOT_PORT]	= "Root Port",
		[PCI_EXP_TYPE_UPSTREAM]		= "Upstream Port",
		[PCI_EXP_TYPE_DOWNSTREAM]	= "Downstream Port",
		[PCI_EXP_TYPE_PCI_BRIDGE]	= "PCIe-to-PCI Bridge",
		[PCI_EXP_TYPE_PCIE_BRIDGE]	= "PCI-to-PCIe Bridge",
		[PCI_EXP_TYPE_RC_END]		= "RC Integrated Endpoint",
		[PCI_EXP_TYPE_RC_EC]		= "RC Event Collector",
	};

	/* The module keeps the type of a function gone silent; raw
	 * configuration space reading all ones has none. */
	if (dev->config_not_captured)
		return "Bridge (not in the input)";
	if (dev->pcie_type < 0 && dev->config_unreadable)
		return "Unreadable Function";
	if (dev->pcie_type < 0)
		return dev->flags & PCIEAUDIT_DEV_F_BRIDGE ? "PCI Bridge" : "PCI Device";
	if ((size_t)dev->pcie_type < ARRAY_SIZE(labels) && labels[dev->pcie_type])
		return labels[dev->pcie_type];
	return "PCIe (reserved type)";
}

void pa_text_device_line(FILE *f, const struct pa_device *dev)
{
	char bdf[PA_BDF_LEN];

	pa_bdf_format(&dev->addr, bdf);
	/* Only its place is known: no ids, no names, no driver. */
	if (dev->config_not_captured) {
		fprintf(f, "%s %s [ids unknown] (driver unknown, NUMA node unknown)\n",
			bdf, type_label(dev));
		return;
	}
	fprintf(f, "%s %s [%04x:%04x]", bdf, type_label(dev), dev->vendor,
		dev->device);
	if (dev->class_name)
		fprintf(f, " %s:", dev->class_name);
	fprintf(f, " %s %s", or_text(dev->vendor_name, "unknown vendor"),
		or_text(dev->device_name, "unknown device"));
	if (dev->driver)
		fprintf(f, " (driver %s, ", dev->driver);
	else if (dev->driver_unknown)
		fprintf(f, " (driver unknown, ");
	else
		fprintf(f, " (no driver, ");
	if (dev->numa_node >= 0)
		fprintf(f, "NUMA node %d)", dev->numa_node);
	else
		fprintf(f, "NUMA node unknown)");
	if (dev->flags & PCIEAUDIT_DEV_F_DISCONNECTED)
		fprintf(f, " DISCONNECTED");
	fputc('\n', f);
}

static void print_sriov(FILE *f, const char *indent, const struct pa_device *dev)
{
	char bdf[PA_BDF_LEN];

	if (dev->has_pf) {
		pa_bdf_format(&dev->pf, bdf);
		fprintf(f, "%sSR-IOV: VF of %s\n", indent, bdf);
	} else if (dev->flags & PCIEAUDIT_DEV_F_PHYSFN) {
		fprintf(f, "%sSR-IOV: PF with VFs enabled\n", indent);
	}
}

/* "D3hot", or "unknown" when PMCSR did not answer or is newer than us. */
static const char *power_text(const struct pa_device *dev)
{
	if (dev->config_unreadable && !pa_power_state_name(dev->power_state))
		return "unknown";
	return or_text(pa_power_state_name(dev->power_state),
		       dev->power_state ? "unknown" : NULL);
}

/* Registers read all ones: unknown, which must never read as "none". */
static bool print_unreadable(FILE *f, const char *indent, const char *what,
			     const struct pa_device *dev)
{
	if (!dev->config_unreadable)
		return false;
	if (dev->config_not_captured)
		fprintf(f, "%s%s: unknown: %s\n", indent, what,
			pa_device_acs_unknown(dev));
	else
		fprintf(f, "%s%s: unknown: not readable now (power state %s)\n",
			indent, what, or_text(power_text(dev), "unknown"));
	return true;
}

static void print_power(FILE *f, const char *indent, const struct pa_device *dev)
{
	const char *state = power_text(dev);

	if (!state)
		return;
	if (dev->config_not_captured)
		return;
	fprintf(f, "%sPower: %s%s\n", indent, state,
		dev->config_unreadable ? " (D3cold or gone: configuration space not readable)" : "");
}

static void print_acs(FILE *f, const char *indent, const struct pa_device *dev)
{
	char flags[PA_ACS_TEXT_LEN];

	if (print_unreadable(f, indent, "ACS", dev))
		return;
	if (pa_device_acs_unknown(dev)) {
		fprintf(f, "%sACS: unknown: %s\n", indent, pa_device_acs_unknown(dev));
		return;
	}
	if (!dev->has_acs) {
		fprintf(f, "%sACS: none\n", indent);
		return;
	}
	pa_acs_format(dev->acs.cap, flags);
	fprintf(f, "%sACSCap: %s\n", indent, flags);
	pa_acs_format(dev->acs.ctrl, flags);
	fprintf(f, "%sACSCtl: %s\n", indent, flags);
	/* IOMMU groups were formed with the old value: worth a line. */
	if (dev->acs.has_ctrl_at_load && dev->acs.ctrl_at_load != dev->acs.ctrl) {
		pa_acs_format(dev->acs.ctrl_at_load, flags);
		fprintf(f, "%sACSCtl at load: %s CHANGED since\n", indent, flags);
	}
}

void pa_text_link(FILE *f, const char *indent, const struct pa_device *dev,
		  const char *note)
{
	char speed[PA_SPEED_TEXT_LEN], max[PA_SPEED_TEXT_LEN];
	char target[PA_SPEED_TEXT_LEN];
	struct pa_link_state st;

	fprintf(f, "%sLink: ", indent);
	if (dev->config_not_captured) {
		fprintf(f, "unknown: %s", pa_device_link_unknown(dev));
	} else if (dev->config_unreadable) {
		fprintf(f, "unknown: not readable now (power state %s)",
			or_text(power_text(dev), "unknown"));
	} else if (!dev->has_link) {
		fprintf(f, "none");
	} else {
		pa_device_link_state(dev, &st);
		pa_link_format_speed(st.speed, speed);
		pa_link_format_speed(st.max_speed, max);
		pa_link_format_speed(st.target_speed, target);
		if (st.width == 0) {
			fprintf(f, "down (max %s x%u)", max, st.max_width);
		} else {
			fprintf(f, "%s x%u (max %s x%u", speed, st.width, max,
				st.max_width);
			/* A target below the maximum means software capped the
			 * link. */
			if (st.target_speed > 0 && st.target_speed < st.max_speed)
				fprintf(f, ", target %s", target);
			fprintf(f, ")%s", st.downgraded ? " DOWNGRADED" : "");
		}
	}
	fprintf(f, "%s%s\n", note ? ", " : "", note ? note : "");
}

static void print_iommu(FILE *f, const char *indent, const struct pa_device *dev,
			bool unknown)
{
	const struct pa_iommu *io = &dev->iommu;

	if (!dev->has_iommu && unknown) {
		fprintf(f, "%sIOMMU: unknown: not in the input\n", indent);
		return;
	}
	if (!dev->has_iommu) {
		fprintf(f, "%sIOMMU: none\n", indent);
		return;
	}
	/* Only snapshots and older modules know the attached domain. */
	if (io->domain)
		fprintf(f, "%sIOMMU: group %u, domain %s (default %s%s)", indent,
			io->group, pa_domain_type_name(io->domain),
			or_text(pa_domain_type_name(io->def_domain), "unknown"),
			io->def_domain_source == PCIEAUDIT_SOURCE_DERIVED ?
			", derived" : "");
	else
		fprintf(f, "%sIOMMU: group %u, default domain %s", indent,
			io->group,
			or_text(pa_domain_type_name(io->def_domain), "unknown"));
	if (io->instance)
		fprintf(f, " via %s", io->instance);
	if (io->dma_owner)
		fprintf(f, ", DMA ownership %s", pa_dma_owner_name(io->dma_owner));
	fputc('\n', f);
}

/* A link's two ends count their errors apart (the receiver logs what it
 * saw): beside a function's own counters, those of the port above it. */
static void print_aer(FILE *f, const char *indent, const struct pa_report *rep,
		      const struct pa_device *dev)
{
	const struct pa_device *port;
	char buf[1024], bdf[PA_BDF_LEN];

	if (dev->aer.state == PA_AER_NOT_READ)
		return;
	pa_aer_format(&dev->aer, buf, sizeof(buf));
	fprintf(f, "%sAER: %s\n", indent, buf);
	port = dev->has_link ? pa_report_upstream(rep, dev) : NULL;
	if (!port || port->aer.state == PA_AER_NOT_READ ||
	    (port->pcie_type != PCI_EXP_TYPE_ROOT_PORT &&
	     port->pcie_type != PCI_EXP_TYPE_DOWNSTREAM))
		return;
	pa_bdf_format(&port->addr, bdf);
	pa_aer_format(&port->aer, buf, sizeof(buf));
	fprintf(f, "%sAER at the link's other end (%s): %s\n", indent, bdf, buf);
}

static void print_history(FILE *f, const char *indent,
			  const struct pa_device *dev)
{
	char buf[256];

	if (!dev->has_history)
		return;
	pa_history_format(&dev->history, buf, sizeof(buf));
	fprintf(f, "%sLink history: %s\n", indent, buf);
}

static void print_details(FILE *f, const char *indent,
			  const struct pa_report *rep, const struct pa_device *dev)
{
	print_sriov(f, indent, dev);
	print_power(f, indent, dev);
	print_acs(f, indent, dev);
	pa_text_link(f, indent, dev, NULL);
	pa_text_caps(f, indent, dev);
	print_iommu(f, indent, dev, rep->info.iommu_unknown);
	print_aer(f, indent, rep, dev);
	print_history(f, indent, dev);
}

struct tree {
	FILE *f;
	const struct pa_report *rep;
	bool *printed;
	char *prefix;	/* room for STEP characters per level, plus one more */
};

static bool is_child_of(const struct pa_device *dev,
			const struct pa_device *parent)
{
	return dev->has_upstream && pa_addr_eq(&dev->upstream, &parent->addr);
}

static size_t next_child(const struct tree *t, size_t parent, size_t from)
{
	const struct pa_device *devs = t->rep->devices;

	for (size_t i = from; i < t->rep->ndevices; i++)
		if (!t->printed[i] && is_child_of(&devs[i], &devs[parent]))
			return i;
	return NONE;
}

/* Prints device i after prefix[0..plen), its details, then its children. */
static void print_subtree(struct tree *t, size_t i, size_t plen, bool last)
{
	const struct pa_device *dev = &t->rep->devices[i];
	size_t child;

	t->printed[i] = true;
	fprintf(t->f, "%.*s%s", (int)plen, t->prefix, last ? LAST_BRANCH : BRANCH);
	pa_text_device_line(t->f, dev);

	/* Details sit one level in; a pipe there leads on to the children. */
	memcpy(t->prefix + plen, last ? BLANK : PIPE, STEP);
	child = next_child(t, i, 0);
	memcpy(t->prefix + plen + STEP, child != NONE ? PIPE : BLANK, STEP + 1);
	print_details(t->f, t->prefix, t->rep, dev);

	while (child != NONE) {
		bool last_child = next_child(t, i, child + 1) == NONE;

		print_subtree(t, child, plen + STEP, last_child);
		child = next_child(t, i, child + 1);
	}
}

static bool same_bus(const struct pa_addr *a, const struct pa_addr *b)
{
	return a->domain == b->domain && a->bus == b->bus;
}

static bool is_root(const struct tree *t, size_t i)
{
	const struct pa_device *dev = &t->rep->devices[i];

	return !dev->has_upstream || !pa_report_find(t->rep, &dev->upstream);
}

/* The next device to start a tree at: a root, or with any set a device that
 * an upstream cycle (corrupt data) kept out of every tree. */
static size_t next_start(const struct tree *t, size_t from, bool any)
{
	for (size_t i = from; i < t->rep->ndevices; i++)
		if (!t->printed[i] && (any || is_root(t, i)))
			return i;
	return NONE;
}

static void print_forest(struct tree *t)
{
	const struct pa_device *devs = t->rep->devices;
	const struct pa_addr *bus = NULL;

	for (int any = 0; any < 2; any++) {
		size_t i = next_start(t, 0, any);

		while (i != NONE) {
			size_t next = next_start(t, i + 1, any);
			bool last = next == NONE ||
				    !same_bus(&devs[next].addr, &devs[i].addr);

			if (!bus || !same_bus(bus, &devs[i].addr)) {
				bus = &devs[i].addr;
				fprintf(t->f, "[%04x:%02x]\n", bus->domain, bus->bus);
			}
			print_subtree(t, i, 0, last);
			i = next_start(t, i + 1, any);
		}
	}
}

static void print_groups(FILE *f, const struct pa_report *rep)
{
	char bdf[PA_BDF_LEN];

	if (!rep->ngroups)
		return;
	fprintf(f, "\nIOMMU groups:\n");
	for (size_t i = 0; i < rep->ngroups; i++) {
		const struct pa_group *g = &rep->groups[i];

		fprintf(f, "  group %u:", g->id);
		for (size_t m = 0; m < g->nmembers; m++) {
			pa_bdf_format(&g->members[m], bdf);
			fprintf(f, " %s", bdf);
		}
		if (g->other_members)
			fprintf(f, " (+%u non-PCI)", g->other_members);
		fputc('\n', f);
	}
}

static const char *iommu_mode_text(const struct pa_info *info)
{
	if (info->iommu_unknown)
		return "unknown (not in the input)";
	if (pa_info_iommu_not_built(info))
		return "not built (CONFIG_IOMMU_API off)";
	if (!(info->features & PCIEAUDIT_F_IOMMU_PRESENT))
		return "none";
	return or_text(pa_iommu_mode_name(info->iommu_def_mode), "unknown");
}

static const char *iommu_strict_text(const struct pa_info *info)
{
	if (!(info->features & PCIEAUDIT_F_IOMMU_PRESENT))
		return "none";
	return or_text(pa_iommu_strict_name(info->iommu_strict), "unknown");
}

static void print_header(FILE *f, const struct pa_info *info)
{
	const char *strict = pa_iommu_strict_name(info->iommu_strict);

	/* Only reports read without the module lack its version. */
	fprintf(f, "pcieaudit %s, kernel %s, IOMMU %s",
		or_text(info->module_version, "(no module)"),
		or_text(info->kernel_release, "?"), iommu_mode_text(info));
	if (strict && (info->features & PCIEAUDIT_F_IOMMU_PRESENT))
		fprintf(f, " (%s)", strict);
	if (info->iommu_unknown)
		fprintf(f, ", %u PCI functions, IOMMU groups unknown\n",
			info->device_count);
	else
		fprintf(f, ", %u PCI functions, %u IOMMU groups\n",
			info->device_count, info->group_count);
}

static int status(FILE *f)
{
	return ferror(f) ? -EIO : 0;
}

int pa_text_report(FILE *f, const struct pa_report *rep)
{
	size_t n = rep->ndevices;
	struct tree t = {
		.f = f,
		.rep = rep,
		.printed = calloc(n + 1, sizeof(*t.printed)),
		/* At most n levels, one more for details, and a NUL. */
		.prefix = malloc(STEP * (n + 1) + 1),
	};
	int err = 0;

	if (!t.printed || !t.prefix) {
		err = -ENOMEM;
	} else {
		print_header(f, &rep->info);
		print_forest(&t);
		print_groups(f, rep);
		err = status(f);
	}
	free(t.printed);
	free(t.prefix);
	return err;
}

/* The kernel command line's IOMMU and ACS parameters, as written. */
static void iommu_params(FILE *f, const char *cmdline)
{
	struct pa_cmdline cl = { 0 };
	size_t shown = 0;

	fprintf(f, "IOMMU/ACS boot:  ");
	if (!cmdline) {
		fprintf(f, "unknown (no kernel command line in the input)\n");
		return;
	}
	if (pa_cmdline_parse(cmdline, &cl)) {
		fprintf(f, "unknown (out of memory)\n");
		return;
	}
	for (size_t i = 0; i < cl.n; i++)
		if (pa_param_iommu_acs(&cl.params[i]))
			fprintf(f, "%s%s", shown++ ? " " : "", cl.params[i].text);
	fprintf(f, "%s\n", shown ? "" : "none on the kernel command line");
	pa_cmdline_clear(&cl);
}

int pa_text_info_source(FILE *f, const struct pa_info *info,
			const struct pa_info_source *src)
{
	const char *why = src->why;

	fprintf(f, "source:          %s %s\n", src->kind, src->path);
	if (src->module_known)
		fprintf(f, "module version:  %s\n", or_text(info->module_version, "?"));
	else
		fprintf(f, "module version:  unknown (%s)\n", why);
	if (src->kernel_known && info->kernel_release)
		fprintf(f, "kernel release:  %s\n", info->kernel_release);
	else
		fprintf(f, "kernel release:  unknown (%s)\n", why);
	if (src->module_known && info->p2p_rules)
		fprintf(f, "P2P rules:       %s\n", info->p2p_rules);
	if (src->features_known) {
		fprintf(f, "features:       ");
		for (size_t i = 0; i < PA_NFEATURES; i++)
			fprintf(f, " %s%c", pa_feature_names[i].name,
				info->features & pa_feature_names[i].bit ? '+' : '-');
		fputc('\n', f);
	} else {
		fprintf(f, "features:        unknown (%s)\n", why);
	}
	if (src->iommu_mode_known) {
		fprintf(f, "IOMMU default:   %s\n", iommu_mode_text(info));
		fprintf(f, "IOMMU strict:    %s\n", iommu_strict_text(info));
	} else {
		fprintf(f, "IOMMU default:   unknown (%s)\n", why);
		fprintf(f, "IOMMU strict:    unknown (%s)\n", why);
	}
	fprintf(f, "PCI functions:   %u\n", info->device_count);
	if (src->groups_known)
		fprintf(f, "IOMMU groups:    %u\n", info->group_count);
	else
		fprintf(f, "IOMMU groups:    unknown (%s)\n", why);
	iommu_params(f, src->cmdline);
	return status(f);
}

int pa_text_info(FILE *f, const struct pa_info *info)
{
	fprintf(f, "module version:  %s\n", or_text(info->module_version, "?"));
	fprintf(f, "kernel release:  %s\n", or_text(info->kernel_release, "?"));
	if (info->p2p_rules)
		fprintf(f, "P2P rules:       %s\n", info->p2p_rules);
	fprintf(f, "features:       ");
	for (size_t i = 0; i < PA_NFEATURES; i++)
		fprintf(f, " %s%c", pa_feature_names[i].name,
			info->features & pa_feature_names[i].bit ? '+' : '-');
	fprintf(f, "\nIOMMU default:   %s\n", iommu_mode_text(info));
	fprintf(f, "IOMMU strict:    %s\n", iommu_strict_text(info));
	fprintf(f, "PCI functions:   %u\n", info->device_count);
	fprintf(f, "IOMMU groups:    %u\n", info->group_count);
	return status(f);
}

// SPDX-License-Identifier: GPL-2.0
#include "vfio_plan.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pcieaudit.h>

#include "bdf.h"
#include "exitcodes.h"
#include "strbuf.h"

/* A user (a guest's VFIO or iommufd) holds the device's group. */
static bool held(const struct pa_device *d)
{
	return pa_check_vfio_driver(d->driver) &&
	       (d->iommu.dma_owner == PCIEAUDIT_DMA_OWNER_CLAIMED ||
		d->iommu.domain == PCIEAUDIT_DOMAIN_UNMANAGED ||
		d->iommu.domain == PCIEAUDIT_DOMAIN_BLOCKED);
}

static int add_dev(struct pa_vfio_plan *p, const struct pa_report *rep,
		   const struct pa_device *d, bool asked)
{
	struct pa_vfio_plan_dev *v;

	for (size_t i = 0; i < p->ndevs; i++)
		if (p->devs[i].d == d) {
			p->devs[i].asked |= asked;
			return 0;
		}
	v = realloc(p->devs, (p->ndevs + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->devs = v;
	v = &v[p->ndevs++];
	*v = (struct pa_vfio_plan_dev){ .d = d, .asked = asked };
	return pa_vfio_reset_of(rep, d, &v->reset);
}

static int add_group(struct pa_vfio_plan *p, uint32_t id)
{
	uint32_t *g;

	for (size_t i = 0; i < p->ngroups; i++)
		if (p->groups[i] == id)
			return 0;
	g = realloc(p->groups, (p->ngroups + 1) * sizeof(*g));
	if (!g)
		return -ENOMEM;
	p->groups = g;
	g[p->ngroups++] = id;
	return 0;
}

static bool in_plan(const struct pa_vfio_plan *p, const struct pa_addr *a)
{
	for (size_t i = 0; i < p->ndevs; i++)
		if (pa_addr_eq(&p->devs[i].d->addr, a))
			return true;
	return false;
}

/* What the plan itself resolves is no blocker: members that go too, and
 * binding them to vfio-pci. */
static bool resolved(enum pa_rule_id r)
{
	return r == PA_VFIO_GROUP_SHARED || r == PA_VFIO_GROUP_NOT_VIABLE ||
	       r == PA_VFIO_NOT_OPENED;
}

static int add_blockers(struct pa_vfio_plan *p, const struct pa_check *c)
{
	p->blockers = calloc(c->nfindings + 1, sizeof(*p->blockers));
	if (!p->blockers)
		return -ENOMEM;
	for (size_t i = 0; i < c->nfindings; i++) {
		const struct pa_finding *f = &c->findings[i];
		bool mine = !f->devices.n;

		if (pa_rules[f->rule].profile != PA_PROFILE_VFIO ||
		    resolved(f->rule) || f->severity == PA_SEV_INFO)
			continue;
		for (size_t k = 0; !mine && k < f->devices.n; k++)
			mine = in_plan(p, &f->devices.addrs[k]);
		if (!mine)
			continue;
		p->blockers[p->nblockers++] = f;
		if (f->severity > p->worst)
			p->worst = f->severity;
	}
	return 0;
}

static int step(struct pa_vfio_plan *p, const char *kind, const char *what,
		struct pa_sb *sb)
{
	struct pa_vfio_plan_step *s;
	char *text = pa_sb_take(sb);

	if (!text)
		return -ENOMEM;
	s = realloc(p->steps, (p->nsteps + 1) * sizeof(*s));
	if (!s) {
		free(text);
		return -ENOMEM;
	}
	p->steps = s;
	p->steps[p->nsteps++] = (struct pa_vfio_plan_step){ kind, what, text };
	return 0;
}

/* The command line changes the blockers' remedies name. */
static int cmdline_step(struct pa_vfio_plan *p)
{
	struct pa_sb sb = { 0 };
	bool any = false;

	for (size_t i = 0; i < p->nblockers; i++) {
		const struct pa_finding *f = p->blockers[i];

		if (f->remedy_kind != PA_REMEDY_CMDLINE_ADD &&
		    f->remedy_kind != PA_REMEDY_CMDLINE_REMOVE)
			continue;
		pa_sb_printf(&sb, "%s%s %s   # %s\n", any ? "" : "",
			     f->remedy_kind == PA_REMEDY_CMDLINE_ADD ? "add" : "remove",
			     f->remedy, pa_rules[f->rule].id);
		any = true;
	}
	if (!any) {
		free(pa_sb_take(&sb));
		return 0;
	}
	return step(p, "cmdline", "the kernel command line (then update-grub and reboot)", &sb);
}

/* Whether another function of the host has d's ids: vfio-pci.ids= would
 * take it too. */
static bool ids_shared(const struct pa_report *rep, const struct pa_vfio_plan *p,
		       const struct pa_device *d)
{
	for (size_t i = 0; i < rep->ndevices; i++) {
		const struct pa_device *o = &rep->devices[i];

		if (o->vendor == d->vendor && o->device == d->device &&
		    !in_plan(p, &o->addr))
			return true;
	}
	return false;
}

static int bind_steps(struct pa_vfio_plan *p, const struct pa_report *rep)
{
	struct pa_sb now = { 0 }, boot = { 0 }, ids = { 0 };
	char bdf[PA_BDF_LEN];
	bool shared = false;
	int err;

	pa_sb_printf(&now, "modprobe vfio-pci\n");
	for (size_t i = 0; i < p->ndevs; i++) {
		const struct pa_device *d = p->devs[i].d;

		pa_bdf_format(&d->addr, bdf);
		if (pa_check_vfio_driver(d->driver))
			continue;
		pa_sb_printf(&now, "echo vfio-pci > /sys/bus/pci/devices/%s/driver_override\n", bdf);
		if (d->driver)
			pa_sb_printf(&now, "echo %s > /sys/bus/pci/devices/%s/driver/unbind\n",
				     bdf, bdf);
		pa_sb_printf(&now, "echo %s > /sys/bus/pci/drivers_probe\n", bdf);
	}
	err = step(p, "bind", "bind them to vfio-pci now", &now);
	if (err)
		return err;
	for (size_t i = 0; i < p->ndevs; i++) {
		pa_bdf_format(&p->devs[i].d->addr, bdf);
		pa_sb_printf(&boot, "driverctl set-override %s vfio-pci\n", bdf);
		shared |= ids_shared(rep, p, p->devs[i].d);
	}
	if (!shared) {
		pa_sb_printf(&ids, "vfio-pci.ids=");
		for (size_t i = 0; i < p->ndevs; i++)
			pa_sb_printf(&ids, "%s%04x:%04x", i ? "," : "",
				     p->devs[i].d->vendor, p->devs[i].d->device);
		pa_sb_printf(&ids, "\n");
		for (size_t i = 0; i < p->ndevs; i++) {
			const char *drv = p->devs[i].d->driver;

			if (drv && !pa_check_vfio_driver(drv))
				pa_sb_printf(&ids, "echo 'softdep %s pre: vfio-pci' >> /etc/modprobe.d/vfio.conf\n",
					     drv);
		}
		pa_sb_printf(&ids, "update-initramfs -u   # or dracut -f\n");
	}
	err = step(p, "boot", "keep them on vfio-pci at every boot (driverctl)", &boot);
	if (!err && !shared)
		err = step(p, "boot", "or: the kernel command line's vfio-pci.ids=, vfio-pci loaded before their drivers", &ids);
	else
		free(pa_sb_take(&ids));
	return err;
}

static int guest_steps(struct pa_vfio_plan *p)
{
	struct pa_sb xml = { 0 }, qemu = { 0 };
	char bdf[PA_BDF_LEN];
	int err;

	pa_sb_printf(&qemu, "qemu-system-x86_64 ...");
	for (size_t i = 0; i < p->ndevs; i++) {
		const struct pa_addr *a = &p->devs[i].d->addr;

		pa_bdf_format(a, bdf);
		pa_sb_printf(&xml, "<hostdev mode='subsystem' type='pci' managed='yes'>\n"
			     "  <source><address domain='0x%04x' bus='0x%02x' slot='0x%02x' function='0x%x'/></source>\n"
			     "</hostdev>\n", a->domain, a->bus, a->devfn >> 3, a->devfn & 7);
		pa_sb_printf(&qemu, " \\\n  -device vfio-pci,host=%s", bdf);
	}
	pa_sb_printf(&qemu, "\n");
	err = step(p, "libvirt", "the guest's devices (virsh edit)", &xml);
	if (!err)
		err = step(p, "qemu", "or on QEMU's command line", &qemu);
	else
		free(pa_sb_take(&qemu));
	return err;
}

/* A request the plan cannot take: *e says why. */
static int refuse(const struct pa_report *rep, const struct pa_addr *a,
		  struct pa_error *e)
{
	const struct pa_device *d = pa_report_find(rep, a);
	const struct pa_group *g;
	char bdf[PA_BDF_LEN], other[PA_BDF_LEN];

	pa_bdf_format(a, bdf);
	if (!d)
		return pa_error_set(e, PA_EXIT_NO_DEVICE, "no function %s in the input", bdf);
	if (d->flags & PCIEAUDIT_DEV_F_BRIDGE)
		return pa_error_set(e, PA_EXIT_USAGE,
				    "%s is a bridge (%s): VFIO assigns endpoints; name the devices below it",
				    bdf, pa_check_noun(d));
	/* Header type 0, so vfio-pci would take them, but they are the
	 * host's own: its root complex, its LPC and firmware devices. */
	if (d->class >> 8 == 0x0600 || d->class >> 8 == 0x0601)
		return pa_error_set(e, PA_EXIT_USAGE,
				    "%s is %s (class %06x): the host's own, never a guest's",
				    bdf, d->class >> 8 == 0x0600 ? "a host bridge" :
				    "an ISA bridge (LPC)", d->class);
	g = pa_report_group_of(rep, d);
	for (size_t m = 0; g && m < g->nmembers; m++) {
		const struct pa_device *o = pa_report_find(rep, &g->members[m]);

		if (o && held(o)) {
			pa_bdf_format(&o->addr, other);
			return pa_error_set(e, PA_EXIT_USAGE,
					    "%s's IOMMU group %u is in use: %s is bound to %s and its group is claimed (a guest or another VFIO user has it open); stop that guest first",
					    bdf, g->id, other, o->driver);
		}
	}
	return 0;
}

int pa_vfio_plan_build(const struct pa_report *rep, const struct pa_check *c,
		       const struct pa_addr *bdfs, size_t n,
		       struct pa_vfio_plan *p, struct pa_error *e)
{
	int err = 0, rc;

	*p = (struct pa_vfio_plan){ .c = c };
	for (size_t i = 0; i < n; i++) {
		rc = refuse(rep, &bdfs[i], e);
		if (rc)
			return rc;
	}
	for (size_t i = 0; !err && i < n; i++) {
		const struct pa_device *d = pa_report_find(rep, &bdfs[i]);
		const struct pa_group *g = pa_report_group_of(rep, d);

		err = add_dev(p, rep, d, true);
		if (!err && g)
			err = add_group(p, g->id);
		for (size_t m = 0; !err && g && m < g->nmembers; m++) {
			const struct pa_device *o = pa_report_find(rep, &g->members[m]);

			/* VFIO lets bridges in a group stay on their drivers. */
			if (o && !(o->flags & PCIEAUDIT_DEV_F_BRIDGE))
				err = add_dev(p, rep, o, false);
		}
	}
	if (!err)
		err = add_blockers(p, c);
	pa_vfio_intremap_state(c, &p->ir);
	if (!err)
		err = cmdline_step(p);
	if (!err)
		err = bind_steps(p, rep);
	if (!err)
		err = guest_steps(p);
	if (err)
		pa_vfio_plan_clear(p);
	return err;
}

void pa_vfio_plan_clear(struct pa_vfio_plan *p)
{
	for (size_t i = 0; i < p->ndevs; i++)
		pa_addr_list_clear(&p->devs[i].reset.sharing);
	for (size_t i = 0; i < p->nsteps; i++)
		free(p->steps[i].text);
	free(p->devs);
	free(p->groups);
	free(p->blockers);
	free(p->steps);
	*p = (struct pa_vfio_plan){ 0 };
}

int pa_vfio_plan_exit_code(const struct pa_vfio_plan *p)
{
	return p->worst == PA_SEV_FAIL ? PA_EXIT_FINDING :
	       p->worst == PA_SEV_WARN ? PA_EXIT_WARNINGS : PA_EXIT_OK;
}

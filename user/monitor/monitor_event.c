// SPDX-License-Identifier: GPL-2.0
#include "monitor_event.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <json-c/json.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/genl/genl.h>
#include <linux/pci_regs.h>
#include <linux/pcieaudit.h>

#include "aer.h"
#include "bdf.h"
#include "link.h"
#include "link_history.h"

#define FIXED(t, n)	{ .type = (t), .minlen = (n), .maxlen = (n) }

static const struct nla_policy mon_policy[PCIEAUDIT_A_MON_MAX + 1] = {
	[PCIEAUDIT_A_MON_SEQ]		= FIXED(NLA_U64, 8),
	[PCIEAUDIT_A_MON_TIME_NS]	= FIXED(NLA_U64, 8),
	[PCIEAUDIT_A_MON_EVENT]		= FIXED(NLA_U32, 4),
	[PCIEAUDIT_A_MON_SOURCE]	= FIXED(NLA_U32, 4),
	[PCIEAUDIT_A_MON_ADDR]		= { .type = NLA_NESTED },
	[PCIEAUDIT_A_MON_LNKCAP]	= FIXED(NLA_U32, 4),
	[PCIEAUDIT_A_MON_LNKSTA_OLD]	= FIXED(NLA_U16, 2),
	[PCIEAUDIT_A_MON_LNKSTA]	= FIXED(NLA_U16, 2),
	[PCIEAUDIT_A_MON_ACS_CTRL_OLD]	= FIXED(NLA_U16, 2),
	[PCIEAUDIT_A_MON_ACS_CTRL]	= FIXED(NLA_U16, 2),
};

static const struct nla_policy addr_policy[PCIEAUDIT_A_ADDR_MAX + 1] = {
	[PCIEAUDIT_A_ADDR_DOMAIN]	= FIXED(NLA_U32, 4),
	[PCIEAUDIT_A_ADDR_BUS]		= FIXED(NLA_U8, 1),
	[PCIEAUDIT_A_ADDR_DEVFN]	= FIXED(NLA_U8, 1),
};

int pa_mon_decode(struct nl_msg *msg, struct pa_mon_event *ev)
{
	struct nlattr *tb[PCIEAUDIT_A_MON_MAX + 1], *ab[PCIEAUDIT_A_ADDR_MAX + 1];
	struct pa_mon_event e = { 0 };

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, PCIEAUDIT_A_MON_MAX,
			  (struct nla_policy *)mon_policy) < 0)
		return -EBADMSG;
	if (!tb[PCIEAUDIT_A_MON_SEQ] || !tb[PCIEAUDIT_A_MON_TIME_NS] ||
	    !tb[PCIEAUDIT_A_MON_EVENT] || !tb[PCIEAUDIT_A_MON_SOURCE] ||
	    !tb[PCIEAUDIT_A_MON_ADDR])
		return -EBADMSG;
	if (nla_parse_nested(ab, PCIEAUDIT_A_ADDR_MAX, tb[PCIEAUDIT_A_MON_ADDR],
			     (struct nla_policy *)addr_policy) < 0 ||
	    !ab[PCIEAUDIT_A_ADDR_DOMAIN] || !ab[PCIEAUDIT_A_ADDR_BUS] ||
	    !ab[PCIEAUDIT_A_ADDR_DEVFN])
		return -EBADMSG;
	e.seq = nla_get_u64(tb[PCIEAUDIT_A_MON_SEQ]);
	e.time_ns = nla_get_u64(tb[PCIEAUDIT_A_MON_TIME_NS]);
	e.event = nla_get_u32(tb[PCIEAUDIT_A_MON_EVENT]);
	e.source = nla_get_u32(tb[PCIEAUDIT_A_MON_SOURCE]);
	e.addr.domain = nla_get_u32(ab[PCIEAUDIT_A_ADDR_DOMAIN]);
	e.addr.bus = nla_get_u8(ab[PCIEAUDIT_A_ADDR_BUS]);
	e.addr.devfn = nla_get_u8(ab[PCIEAUDIT_A_ADDR_DEVFN]);
	e.has_link = tb[PCIEAUDIT_A_MON_LNKCAP] && tb[PCIEAUDIT_A_MON_LNKSTA] &&
		     tb[PCIEAUDIT_A_MON_LNKSTA_OLD];
	if (e.has_link) {
		e.lnkcap = nla_get_u32(tb[PCIEAUDIT_A_MON_LNKCAP]);
		e.lnksta = nla_get_u16(tb[PCIEAUDIT_A_MON_LNKSTA]);
		e.lnksta_old = nla_get_u16(tb[PCIEAUDIT_A_MON_LNKSTA_OLD]);
	}
	e.has_acs = tb[PCIEAUDIT_A_MON_ACS_CTRL] && tb[PCIEAUDIT_A_MON_ACS_CTRL_OLD];
	if (e.has_acs) {
		e.acs = nla_get_u16(tb[PCIEAUDIT_A_MON_ACS_CTRL]);
		e.acs_old = nla_get_u16(tb[PCIEAUDIT_A_MON_ACS_CTRL_OLD]);
	}
	*ev = e;
	return 0;
}

static const char *event_name(uint32_t event)
{
	switch (event) {
	case PCIEAUDIT_MON_ADDED:	return "added";
	case PCIEAUDIT_MON_REMOVED:	return "removed";
	case PCIEAUDIT_MON_LINK:	return "link";
	case PCIEAUDIT_MON_ACS:		return "acs-changed";
	default:			return "unknown";
	}
}

static const char *source_name(uint32_t source)
{
	switch (source) {
	case PCIEAUDIT_MON_SRC_BUS_NOTIFIER:	return "bus-notifier";
	case PCIEAUDIT_MON_SRC_SAMPLER:		return "sampler";
	case PCIEAUDIT_MON_SRC_PCI_HP_EVENT:	return "pci_hp_event";
	case PCIEAUDIT_MON_SRC_PCIE_LINK_EVENT:	return "pcie_link_event";
	default:				return "unknown";
	}
}

/* Up: Data Link Layer Link Active where LnkCap says it is reported,
 * else a negotiated width. */
static bool link_up(uint32_t lnkcap, uint16_t lnksta)
{
	if (lnkcap & PCI_EXP_LNKCAP_DLLLARC)
		return lnksta & PCI_EXP_LNKSTA_DLLLA;
	return lnksta & PCI_EXP_LNKSTA_NLW;
}

struct link_view {
	bool up, lbms, labs;
	double speed;
	unsigned int width;
};

static void view(uint32_t lnkcap, uint16_t lnksta, struct link_view *v)
{
	v->up = link_up(lnkcap, lnksta);
	v->lbms = lnksta & PCI_EXP_LNKSTA_LBMS;
	v->labs = lnksta & PCI_EXP_LNKSTA_LABS;
	v->speed = pa_link_speed_gts(lnksta & PCI_EXP_LNKSTA_CLS);
	v->width = (lnksta & PCI_EXP_LNKSTA_NLW) >> PCI_EXP_LNKSTA_NLW_SHIFT;
}

static void text_link(FILE *f, const struct link_view *v)
{
	char speed[PA_SPEED_TEXT_LEN];

	if (!v->up) {
		fputs("down", f);
		return;
	}
	pa_link_format_speed(v->speed, speed);
	fprintf(f, "up %s x%u", speed, v->width);
	if (v->lbms)
		fputs(" LBMS", f);
	if (v->labs)
		fputs(" LABS", f);
}

static json_object *json_link(const struct link_view *v)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "up", json_object_new_boolean(v->up));
	json_object_object_add(o, "speed_gts", v->up && v->speed > 0 ?
			       json_object_new_double(v->speed) : NULL);
	json_object_object_add(o, "width", v->up ?
			       json_object_new_int((int)v->width) : NULL);
	json_object_object_add(o, "lbms", json_object_new_boolean(v->lbms));
	json_object_object_add(o, "labs", json_object_new_boolean(v->labs));
	return o;
}

static json_object *hex16(uint16_t v)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "0x%04x", v);
	return json_object_new_string(buf);
}

static void print_json(FILE *f, const struct pa_mon_event *ev)
{
	json_object *o = json_object_new_object();
	char time[PA_TIME_LEN], bdf[PA_BDF_LEN];
	struct link_view now, was;

	pa_format_time_ns(ev->time_ns, time);
	pa_bdf_format(&ev->addr, bdf);
	json_object_object_add(o, "time", json_object_new_string(time));
	json_object_object_add(o, "seq", json_object_new_uint64(ev->seq));
	json_object_object_add(o, "event",
			       json_object_new_string(event_name(ev->event)));
	json_object_object_add(o, "source",
			       json_object_new_string(source_name(ev->source)));
	json_object_object_add(o, "bdf", json_object_new_string(bdf));
	if (ev->event == PCIEAUDIT_MON_LINK && ev->has_link) {
		view(ev->lnkcap, ev->lnksta, &now);
		view(ev->lnkcap, ev->lnksta_old, &was);
		json_object_object_add(o, "link", json_link(&now));
		json_object_object_add(o, "was", json_link(&was));
		json_object_object_add(o, "lnksta", hex16(ev->lnksta));
		json_object_object_add(o, "lnksta_was", hex16(ev->lnksta_old));
	}
	if (ev->event == PCIEAUDIT_MON_ACS && ev->has_acs) {
		json_object_object_add(o, "acs_ctrl", hex16(ev->acs));
		json_object_object_add(o, "was", hex16(ev->acs_old));
	}
	fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

void pa_mon_print(FILE *f, const struct pa_mon_event *ev, bool json)
{
	char time[PA_TIME_LEN], bdf[PA_BDF_LEN];
	struct link_view now, was;

	if (json) {
		print_json(f, ev);
		return;
	}
	pa_format_time_ns(ev->time_ns, time);
	pa_bdf_format(&ev->addr, bdf);
	fprintf(f, "%s %s %s", time, bdf, event_name(ev->event));
	if (ev->event == PCIEAUDIT_MON_LINK && ev->has_link) {
		view(ev->lnkcap, ev->lnksta, &now);
		view(ev->lnkcap, ev->lnksta_old, &was);
		fputc(' ', f);
		text_link(f, &now);
		fputs(" (was ", f);
		text_link(f, &was);
		fputc(')', f);
	}
	if (ev->event == PCIEAUDIT_MON_ACS && ev->has_acs)
		fprintf(f, " ctrl 0x%04x (was 0x%04x)", ev->acs, ev->acs_old);
	fprintf(f, " [%s] seq %" PRIu64 "\n", source_name(ev->source), ev->seq);
}

/* {"correctable": {"BadTLP": 3}, ...}: the rise of each type that rose. */
static json_object *type_rises(const struct pa_aer *prev, const struct pa_aer *now)
{
	json_object *o = json_object_new_object();

	for (unsigned int sev = 0; sev < PA_AER_NSEV; sev++) {
		json_object *one = json_object_new_object();

		for (size_t i = 0; i < now->ntypes; i++) {
			const struct pa_aer_type *t = &now->types[i];
			uint64_t d;

			if (t->severity == sev && pa_aer_type_rise(prev, t, &d))
				json_object_object_add(one, t->name,
						       json_object_new_uint64(d));
		}
		json_object_object_add(o, pa_aer_severity_name(sev), one);
	}
	return o;
}

bool pa_mon_print_aer(FILE *f, uint64_t time_ns, const struct pa_addr *addr,
		      const struct pa_aer *prev, const struct pa_aer *now,
		      bool json)
{
	char time[PA_TIME_LEN], bdf[PA_BDF_LEN], types[512];
	uint64_t d[3];
	json_object *o;

	if (prev->state != PA_AER_KNOWN || now->state != PA_AER_KNOWN ||
	    now->cor < prev->cor || now->nonfatal < prev->nonfatal ||
	    now->fatal < prev->fatal)
		return false;
	d[0] = now->cor - prev->cor;
	d[1] = now->nonfatal - prev->nonfatal;
	d[2] = now->fatal - prev->fatal;
	if (!d[0] && !d[1] && !d[2])
		return false;
	pa_format_time_ns(time_ns, time);
	pa_bdf_format(addr, bdf);
	if (!json) {
		fprintf(f, "%s %s aer correctable +%" PRIu64 " nonfatal +%" PRIu64
			" fatal +%" PRIu64 " (now %" PRIu64 ", %" PRIu64 ", %" PRIu64
			")", time, bdf, d[0], d[1], d[2], now->cor,
			now->nonfatal, now->fatal);
		for (unsigned int sev = 0; sev < PA_AER_NSEV; sev++)
			if (pa_aer_type_rises(prev, now, sev, types, sizeof(types)))
				fprintf(f, " %s: %s", pa_aer_severity_name(sev), types);
		fputs(" [sysfs]\n", f);
		return true;
	}
	o = json_object_new_object();
	json_object_object_add(o, "time", json_object_new_string(time));
	json_object_object_add(o, "event", json_object_new_string("aer"));
	json_object_object_add(o, "source", json_object_new_string("sysfs"));
	json_object_object_add(o, "bdf", json_object_new_string(bdf));
	json_object_object_add(o, "correctable", json_object_new_uint64(d[0]));
	json_object_object_add(o, "nonfatal", json_object_new_uint64(d[1]));
	json_object_object_add(o, "fatal", json_object_new_uint64(d[2]));
	json_object_object_add(o, "correctable_total", json_object_new_uint64(now->cor));
	json_object_object_add(o, "nonfatal_total", json_object_new_uint64(now->nonfatal));
	json_object_object_add(o, "fatal_total", json_object_new_uint64(now->fatal));
	if (now->ntypes && prev->ntypes)
		json_object_object_add(o, "types", type_rises(prev, now));
	fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return true;
}

void pa_mon_print_resync(FILE *f, uint64_t time_ns, const char *why, bool json)
{
	char time[PA_TIME_LEN];
	json_object *o;

	pa_format_time_ns(time_ns, time);
	if (!json) {
		fprintf(f, "%s resync: events were lost (%s); 'pcieaudit-cli report' shows the state now\n",
			time, why);
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "time", json_object_new_string(time));
	json_object_object_add(o, "event", json_object_new_string("resync"));
	json_object_object_add(o, "reason", json_object_new_string(why));
	fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

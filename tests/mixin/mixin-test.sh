#!/bin/bash
# The monitoring mixin (packaging/mixin): the alert rules through promtool
# (check rules, then test rules on the series of tests.yaml), the dashboard
# against Grafana's own dashboard schema (@grafana/schema's Dashboard type
# as a JSON Schema, from npm into the cache, not the tree), and every
# metric that the rules and the dashboard name against those the exporter
# writes (mixin_check.py). 9 s warm; 56 s cold (npm fetch, schema made once).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mixin=$top/packaging/mixin
cache=${PCIEAUDIT_CACHE:-/var/cache/pcieaudit}/npm-mixin
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false

promtool check rules "$mixin/alerts.yaml"
(cd "$mixin" && promtool test rules tests.yaml)

# Grafana's schema, fetched once per version of package.json.
mkdir -p "$cache"
if ! cmp -s "$here/package.json" "$cache/package.json" ||
   [ ! -x "$cache/node_modules/.bin/ts-json-schema-generator" ]; then
	cp "$here/package.json" "$cache/package.json"
	(cd "$cache" && npm install --silent --no-package-lock >/dev/null)
fi
schema=$cache/dashboard.schema.json
types=$cache/node_modules/@grafana/schema/dist/types/raw/dashboard/x/types.gen.d.ts
if [ ! -s "$schema" ] || [ "$types" -nt "$schema" ]; then
	"$cache/node_modules/.bin/ts-json-schema-generator" --path "$types" \
		--type Dashboard --no-type-check -o "$schema.tmp"
	mv "$schema.tmp" "$schema"
fi
python3 "$here/mixin_check.py" --schema "$schema" --top "$top"

#!/bin/sh
# Writes TOOL's manual page, gzipped, to OUT, from its --help and --version
# (help2man). The page's one-line name is the first paragraph of --help
# ("TOOL: what it does."). Each line of --help's "Examples:" block becomes
# a paragraph of its own, so that help2man does not run them together.
# Usage: man_page.sh HELP2MAN TOOL OUT
set -eu
help2man=$1 tool=$2 out=$3
name=$(basename "$tool")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/$name" <<WRAPPER
#!/bin/sh
"$tool" "\$@" | sed '/^Examples:/,/^\$/{s/^  //;G}'
WRAPPER
chmod +x "$dir/$name"
summary=$("$tool" --help | sed '/^$/q' | tr '\n' ' ' | sed "s/^$name: //; s/[. ]*\$//")
# The version alone in the page's footer: the build's details do not fit there.
version=$("$tool" --version | sed "s/^$name //; s/ .*//")
"$help2man" --no-info --name="$summary" --version-string="$version" "$dir/$name" | gzip -9n > "$dir/page.gz"
mv "$dir/page.gz" "$out"

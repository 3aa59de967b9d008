#!/usr/bin/env bash
# Builds the JVM adapter kit with plain javac and jar (JDK 17 or newer, no other tools) and runs
# its self-test. Usage: build.sh [OUT]  (default OUT: build/ beside this script)
#
#   OUT/conform-adapter.jar          the kit: conform.adapter.* (Adapter, Decoder, Skip, JsonReader, JsonWriter, …)
#   OUT/conform-adapter-example.jar  runnable: the kit plus the example decoder (java -jar …)
#   OUT/conform-adapter-test.jar     the self-test (conform.adapter.JsonSelfTest)
#
# With kotlinc on PATH (or KOTLINC set), also builds OUT/conform-adapter-kotlin.jar, the Kotlin
# example with the Kotlin runtime included (java -jar …); KOTLIN=0 leaves it out.
set -euo pipefail
kit="$(cd "$(dirname "$0")" && pwd)"
out="${1:-$kit/build}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
classes="$out/classes"
rm -rf "$classes"
mkdir -p "$classes"

javac_flags=(--release 17 -encoding UTF-8 -Xlint:all -Werror)
sources() { find "$kit/$1" -name '*.java' | sort; }

echo "== kit"
javac "${javac_flags[@]}" -d "$classes/kit" $(sources src)
jar --create --file "$out/conform-adapter.jar" -C "$classes/kit" .

echo "== example decoder"
javac "${javac_flags[@]}" -cp "$out/conform-adapter.jar" -d "$classes/example" $(sources example)
jar --create --file "$out/conform-adapter-example.jar" --main-class conform.example.MyAdapter \
  -C "$classes/kit" . -C "$classes/example" .

echo "== self-test"
javac "${javac_flags[@]}" -cp "$out/conform-adapter.jar" -d "$classes/test" $(sources test)
jar --create --file "$out/conform-adapter-test.jar" -C "$classes/test" .
java -cp "$out/conform-adapter.jar:$out/conform-adapter-test.jar" conform.adapter.JsonSelfTest

kotlinc="${KOTLINC:-$(command -v kotlinc || true)}"
if [ "${KOTLIN:-1}" != 0 ] && [ -n "$kotlinc" ]; then
  echo "== Kotlin example decoder ($kotlinc)"
  "$kotlinc" -nowarn -jvm-target 1.8 -cp "$out/conform-adapter.jar" -include-runtime \
    -d "$out/conform-adapter-kotlin.jar" "$kit/kotlin/MyKotlinAdapter.kt" 2> >(grep -v 'Xverify:none' >&2)
  # The kit's classes go into the same jar, so `java -jar` needs nothing else on the class path.
  jar --update --file "$out/conform-adapter-kotlin.jar" -C "$classes/kit" .
fi
echo "built: $out"

#!/usr/bin/env bash
# Builds the JVM adapter kit with plain javac and jar (JDK 17 or newer, no other tools) and runs
# its self-test. Usage: build.sh [OUT]  (default OUT: build/ beside this script)
#
#   OUT/conform-adapter.jar          the kit: conform.adapter.* (Adapter, Decoder, Skip, JsonReader, JsonWriter, …)
#   OUT/conform-adapter-example.jar  runnable: the kit plus the example decoder (java -jar …)
#   OUT/conform-adapter-test.jar     the self-test (conform.adapter.JsonSelfTest)
#
# With Kotlin 2 (KOTLINC, else the compiler `npm ci --prefix kotlin` installs beside this script,
# else kotlinc on PATH), also builds OUT/conform-adapter-kotlin.jar, the Kotlin example with the
# Kotlin runtime included (java -jar …). KOTLIN=1 requires it (no Kotlin 2 is an error), KOTLIN=0
# leaves it out; by default it is built when a Kotlin 2 compiler is found.
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

# The Kotlin compiler to use, and its version ("" when there is none).
kotlinc="${KOTLINC:-}"
if [ -z "$kotlinc" ] && [ -x "$kit/kotlin/node_modules/kotlin-compiler/bin/kotlinc" ]; then
  kotlinc="$kit/kotlin/node_modules/kotlin-compiler/bin/kotlinc"
fi
kotlinc="${kotlinc:-$(command -v kotlinc || true)}"
if [ "${KOTLIN:-}" != 0 ]; then
  kotlin_version=""
  if [ -n "$kotlinc" ]; then
    # `kotlinc -version` prints e.g. "info: kotlinc-jvm 2.4.20 (JRE 17.0.15+6)".
    kotlin_version="$("$kotlinc" -version 2>&1 | sed -n 's/.*kotlinc-jvm \([0-9][^ ]*\).*/\1/p' | head -n 1)"
  fi
  if [ -n "$kotlin_version" ] && [ "${kotlin_version%%.*}" -ge 2 ]; then
    echo "== Kotlin example decoder (Kotlin $kotlin_version: $kotlinc)"
    "$kotlinc" -jvm-target 17 -cp "$out/conform-adapter.jar" -include-runtime \
      -d "$out/conform-adapter-kotlin.jar" "$kit/kotlin/MyKotlinAdapter.kt"
    # The kit's classes go into the same jar, so `java -jar` needs nothing else on the class path.
    jar --update --file "$out/conform-adapter-kotlin.jar" -C "$classes/kit" .
  else
    if [ -z "$kotlinc" ]; then
      why="no kotlinc found"
    else
      why="$kotlinc is Kotlin ${kotlin_version:-of an unknown version}, older than 2"
    fi
    echo "Kotlin example left out: $why (npm ci --prefix $kit/kotlin installs Kotlin 2)" >&2
    if [ "${KOTLIN:-}" = 1 ]; then
      exit 1
    fi
  fi
fi
echo "built: $out"

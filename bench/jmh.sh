#!/usr/bin/env bash
# JMH micro-benchmarks of the engine outside OSGi (bench/jmh): the codec (CodecBenchmark) and a
# trivial tools/call through the engine in process, in both eras (EngineBenchmark). Not run by CI.
#
#   bench/jmh.sh                      # every benchmark, the settings in the classes
#   bench/jmh.sh EngineBenchmark -prof gc
#
# Builds the module with its profile (-Pjmh) and the modules it needs, then runs JMH with the
# arguments given.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
mvn -B -q -Pjmh -pl bench/jmh -am package -DskipTests
exec java -jar "$ROOT/bench/jmh/target/benchmarks.jar" "$@"

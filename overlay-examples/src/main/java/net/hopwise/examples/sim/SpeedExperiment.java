package net.hopwise.examples.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * How fast the simulator runs the papers' longest scenario: Chain-5, 1% loss, 500 Kbps, 5000
 * simulated seconds, and whether memory stays flat: heap after a full GC and pending events are
 * sampled every 100 simulated seconds.
 */
final class SpeedExperiment {
    private SpeedExperiment() {
    }

    static void run(Options o) throws IOException {
        ResultTable t = new ResultTable("protocol", "simulated s", "events", "wall s", "of which heap sampling s",
                "events/s", "speed-up over real time", "speed-up with heap sampling",
                "heap after GC at 500 s / end (MiB)", "pending events max");
        List<String> repro = new ArrayList<>();
        for (Protocol p : o.protocols) {
            // A warm-up run first, so the JIT has compiled the hot paths before the measured run.
            ChainScenario.chain5(0.01, 500, 200, p, 1).run();
            List<Double> heap = new ArrayList<>();
            int[] maxPending = {0};
            long[] samplingNanos = {0};
            ChainResult r = ChainScenario.chain5(0.01, 500, o.seconds, p, 1).run(net -> {
                // A full GC per sample is the observer's cost, not the simulator's: timed apart.
                long start = System.nanoTime();
                maxPending[0] = Math.max(maxPending[0], net.simulator().pending());
                heap.add(usedHeapMiB());
                samplingNanos[0] += System.nanoTime() - start;
            });
            double sampling = samplingNanos[0] / 1e9;
            double simulating = r.wallSeconds() - sampling;
            String heapText = heap.size() > 5 ? Report.f(heap.get(4), 1) + " / " + Report.f(heap.get(heap.size() - 1), 1)
                    : heap.isEmpty() ? "-" : Report.f(heap.get(heap.size() - 1), 1);
            t.add(p.label, Report.f(r.simulatedSeconds(), 0), r.events(), Report.f(r.wallSeconds(), 2),
                    Report.f(sampling, 2), Report.f(r.events() / simulating, 0),
                    Report.f(r.simulatedSeconds() / simulating, 0) + "×", Report.f(r.speedUp(), 0) + "×", heapText,
                    maxPending[0]);
            repro.add("| Simulator speed target: 5000-s 500 Kbps chain ≥ 200× real time on 2 cores | ≥ 200× | "
                    + Report.f(r.simulatedSeconds() / simulating, 0) + "× (" + p.label + ", "
                    + Report.f(r.events() / simulating / 1e6, 2)
                    + " M events/s) | `SimulatorCli " + o.command + "` |");
        }
        Report.file(o, "speed.csv", t.toCsv());
        String md = Report.header(o, "### Speed and memory")
                + "\nChain-5, 1% loss on C-D, 500 Kbps of 1000-byte messages, one run of each protocol after a "
                + "200-s warm-up run. Timing includes building the network; heap is sampled after `System.gc()` "
                + "every 100 simulated seconds, and the time those samples take (a full collection each) is "
                + "measured apart: events/s and the speed-up leave it out, the last speed-up keeps it in, as "
                + "this table did before 2026-11-24.\n\n" + t.toMarkdown();
        Report.publish(o, "speed", md, repro);
    }

    private static double usedHeapMiB() {
        Runtime rt = Runtime.getRuntime();
        System.gc();
        return (rt.totalMemory() - rt.freeMemory()) / (1024.0 * 1024.0);
    }
}

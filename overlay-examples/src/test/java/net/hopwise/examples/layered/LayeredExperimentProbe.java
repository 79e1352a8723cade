package net.hopwise.examples.layered;

/** Scratch run while tuning: prints the scenarios once. */
final class LayeredExperimentProbe {
    public static void main(String[] args) {
        for (LayeredScenarios.Protocol p : LayeredScenarios.Protocol.values()) {
            for (LayeredScenarios.Row r : LayeredScenarios.heterogeneous(p, 1, new long[] {300_000, 1_000_000, 10_000_000}, 60)) {
                System.out.println(p + " " + r + " E=" + r.efficiency());
            }
            System.out.println(p + " tcp " + LayeredScenarios.withTcp(p, 1, 400_000, false, 120));
            System.out.println(p + " tcp first " + LayeredScenarios.withTcp(p, 1, 400_000, true, 120));
        }
    }
}

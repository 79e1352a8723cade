package net.hopwise.examples.layered;

import net.hopwise.multicast.layered.LayerRates;

/**
 * FLID-DL's session parameters (Byers et al. 2000; the thesis's Table 4-6 defaults) and its
 * dynamic layering: which multicast group carries which layer in which time slot.
 *
 * <p>Group 0 carries the base layer for ever. The other {@code layers - 1 + quiescentSlots} groups
 * rotate: a group carrying layer {@code l} in slot {@code t} carries {@code l - 1} in slot {@code
 * t + 1}, so its rate falls by the factor C each slot; after layer 1 it is silent for {@code
 * quiescentSlots} slots and then comes back as the top layer. A receiver that holds the groups of
 * layers 0..i in one slot holds 0..i-1 in the next without doing anything: to keep its rate it
 * joins one group a slot, to increase it joins two, to decrease it joins none, so it never has to
 * wait for a leave to take effect. The groups it leaves are silent, and stay silent for longer than
 * the leave takes if {@code quiescentSlots} covers the leave latency.
 *
 * @param layers cumulative layers, the base included (26 in the thesis: 12 Kbit/s to 8.5 Mbit/s)
 * @param rates their cumulative rates, {@code R_i = 12 Kbit/s x 1.3^i} by default
 * @param slotNanos the time slot T (0.5 s)
 * @param quiescentSlots how long a group stays silent between its last and its next use
 * @param simulatedRttSeconds the fixed round trip the increase signals are calibrated to (FLID-DL's
 *     "simulated RTT", 2 x the propagation delay in the thesis's runs); FLID-DL never measures one
 * @param packetBytes M
 */
record FlidDl(int layers, LayerRates rates, long slotNanos, int quiescentSlots, double simulatedRttSeconds,
        int packetBytes) {
    static final long SLOT = 500_000_000L;
    static final double FACTOR = 1.3;
    static final long BASE = 12_000;

    FlidDl {
        if (layers < 2 || rates.count() != layers) {
            throw new IllegalArgumentException("FLID-DL needs at least 2 layers and their rates, got " + layers);
        }
        if (slotNanos <= 0 || quiescentSlots < 1 || !(simulatedRttSeconds > 0) || packetBytes <= 0) {
            throw new IllegalArgumentException("bad FLID-DL parameters");
        }
    }

    /**
     * The thesis's defaults: 26 layers of 12 Kbit/s x 1.3, 0.5 s slots, 512-byte packets; two
     * quiescent slots (a leave latency of 0, as in all the thesis's runs, needs one; the second
     * absorbs the half round trip a prune takes in the overlay).
     */
    static FlidDl defaults(double simulatedRttSeconds) {
        return new FlidDl(26, LayerRates.multiplicative(26, BASE, FACTOR), SLOT, 2, simulatedRttSeconds,
                LayeredScenarios.PACKET);
    }

    /** The groups a relay tracks: the base, the rotating dynamic ones and the silent ones. */
    int groups() {
        return layers + quiescentSlots;
    }

    private int rotating() {
        return layers - 1 + quiescentSlots;
    }

    /** The layer group {@code g} carries in slot {@code slot}; {@code layers} or more when it is silent. */
    int layerOf(int group, long slot) {
        if (group == 0) {
            return 0;
        }
        return (int) Math.floorMod(group - 1 - slot, (long) rotating()) + 1;
    }

    /** The group that carries {@code layer} (0 .. layers - 1) in slot {@code slot}. */
    int groupOf(int layer, long slot) {
        if (layer == 0) {
            return 0;
        }
        return (int) Math.floorMod(layer - 1 + slot, (long) rotating()) + 1;
    }

    /** Group {@code g}'s rate in slot {@code slot}, bit/s: the rate of the layer it carries, 0 when silent. */
    long groupRate(int group, long slot) {
        int l = layerOf(group, slot);
        return l < layers ? rates.rate(l) : 0;
    }

    /**
     * The probability that a slot's increase signal lets level {@code i} (0-based) rise, chosen so
     * that without loss the expected rate grows by one packet per simulated round trip per round
     * trip, as TCP's congestion avoidance does: {@code p_i (R_{i+1} - R_i) = 8 M T / RTT^2}. The
     * thesis does not give the probabilities; this is the digest's TCP-matching choice.
     */
    double increaseProbability(int level) {
        if (level + 1 >= layers) {
            return 0;
        }
        double step = rates.cumulative(level + 1) - rates.cumulative(level);
        double perSlot = 8.0 * packetBytes * (slotNanos / 1e9) / (simulatedRttSeconds * simulatedRttSeconds);
        return Math.min(1, perSlot / step);
    }

    /**
     * The slot's signal from a uniform draw {@code u}: the highest level allowed to rise, -1 for
     * none. The probabilities fall as the level rises, so the levels allowed are always 0..s:
     * receivers behind one bottleneck at one level rise together or not at all.
     */
    int signal(double u) {
        int s = -1;
        while (s + 1 < layers - 1 && u < increaseProbability(s + 1)) {
            s++;
        }
        return s;
    }
}

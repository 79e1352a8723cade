package net.hopwise.admin.config;

/**
 * The multicast module on the service's node ({@code hopwise.multicast.*}). On by default: every node
 * of an overlay that carries group traffic must run it, since relays forward group datagrams and
 * flood the members' records (docs/configuration.md, "Multicast"). The demo's nodes always run it.
 */
public class MulticastProperties {
    private boolean enabled = true;
    /**
     * Bits a second at which the node, as a relay, paces layered multicast data on each outgoing link,
     * shared among the sessions by fair queuing; 0 (the default) forwards each packet at once, the
     * path's queue deciding ({@code RelayQueueing}).
     */
    private long relayQueueingRate;
    /** Each session's queue on each link under fair queuing, packets. */
    private int relayQueueingPackets = net.hopwise.multicast.layered.RelayQueueing.DEFAULT_PACKETS_PER_SESSION;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public long getRelayQueueingRate() {
        return relayQueueingRate;
    }

    public void setRelayQueueingRate(long relayQueueingRate) {
        this.relayQueueingRate = relayQueueingRate;
    }

    public int getRelayQueueingPackets() {
        return relayQueueingPackets;
    }

    public void setRelayQueueingPackets(int relayQueueingPackets) {
        this.relayQueueingPackets = relayQueueingPackets;
    }

    /** The relay queueing these settings ask for; an {@link InvalidSettingsException} naming the bad one. */
    public net.hopwise.multicast.layered.RelayQueueing relayQueueing() {
        java.util.List<String> problems = new java.util.ArrayList<>();
        if (relayQueueingRate < 0) {
            problems.add("hopwise.multicast.relay-queueing-rate: bits a second, 0 for none, got " + relayQueueingRate);
        }
        if (relayQueueingPackets < 1) {
            problems.add("hopwise.multicast.relay-queueing-packets: at least 1, got " + relayQueueingPackets);
        }
        if (relayQueueingRate > 0 && !enabled) {
            problems.add("hopwise.multicast.relay-queueing-rate needs hopwise.multicast.enabled=true");
        }
        if (!problems.isEmpty()) {
            throw new InvalidSettingsException(problems);
        }
        return relayQueueingRate == 0 ? net.hopwise.multicast.layered.RelayQueueing.dropTail()
                : net.hopwise.multicast.layered.RelayQueueing.fair(relayQueueingRate, relayQueueingPackets);
    }
}

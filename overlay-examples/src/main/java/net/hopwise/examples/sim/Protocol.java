package net.hopwise.examples.sim;

import java.util.Locale;
import net.hopwise.overlay.sim.tcp.TcpVariant;

/** What carries the CBR stream across a chain: an end-to-end TCP variant, or the overlay. */
enum Protocol {
    TCP_TAHOE(TcpVariant.TAHOE, "TCP Tahoe e2e"),
    TCP_RENO(TcpVariant.RENO, "TCP Reno e2e"),
    TCP_NEW_RENO(TcpVariant.NEW_RENO, "TCP NewReno e2e"),
    TCP_SACK(TcpVariant.SACK, "TCP SACK e2e"),
    /** Hopwise nodes on every hop, best-effort links: no recovery at all, the floor of delay. */
    OVERLAY_BEST_EFFORT(null, "overlay best-effort"),
    /** Hopwise nodes on every hop: reliable links recover each loss on its hop, a session orders end to end. */
    HOP_BY_HOP(null, "Hopwise hop-by-hop"),
    /** Hopwise nodes only at the two ends: one reliable overlay link spans the whole path (Table 1's "link protocol e2e"). */
    LINK_END_TO_END(null, "Hopwise link protocol e2e");

    final TcpVariant tcp;
    final String label;

    Protocol(TcpVariant tcp, String label) {
        this.tcp = tcp;
        this.label = label;
    }

    static Protocol parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
        return switch (t) {
            case "tahoe" -> TCP_TAHOE;
            case "reno" -> TCP_RENO;
            case "newreno" -> TCP_NEW_RENO;
            case "sack" -> TCP_SACK;
            case "besteffort", "overlay" -> OVERLAY_BEST_EFFORT;
            case "hopbyhop", "hop" -> HOP_BY_HOP;
            case "linke2e", "link" -> LINK_END_TO_END;
            default -> throw new IllegalArgumentException("unknown protocol '" + text
                    + "': expected tahoe, reno, newreno, sack, besteffort, hopbyhop or linke2e");
        };
    }
}

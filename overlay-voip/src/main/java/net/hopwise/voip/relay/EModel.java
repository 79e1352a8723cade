package net.hopwise.voip.relay;

/**
 * The ITU-T G.107 E-model for a narrowband call with default parameters, reduced to what a relay
 * observes: R = 93.2 - Id - Ie,eff (the default Ro - Is is 93.2, the advantage factor A is 0), the
 * delay impairment in Cole and Rosenbluth's approximation of G.107's Id, the packet-loss impairment
 * Ie,eff = Ie + (95 - Ie) * Ppl / (Ppl / BurstR + Bpl), and the R to MOS mapping of G.107 Annex B.
 * It is an estimate from the relay's own counters, never a measured MOS.
 */
public final class EModel {
    /** R with every G.107 default and no impairment: the G.711 ceiling. */
    public static final double R_DEFAULT = 93.2;
    /** G.711 with packet-loss concealment (G.113 Appendix I): Ie 0, Bpl 25.1. */
    public static final Codec G711_PLC = new Codec(0, 25.1);
    /**
     * G.729 Annex A with voice activity detection (G.113 Appendix I): Ie 11, Bpl 19. The relay applies
     * it to every G729 stream, Annex B or not, as the nearest planning figures there are.
     */
    public static final Codec G729A_VAD = new Codec(11, 19);

    /** A codec's equipment impairment Ie and packet-loss robustness Bpl (G.113). */
    public record Codec(double ie, double bpl) {}

    private EModel() {}

    /**
     * The figures for an RTP codec, {@code encoding} or {@code encoding/clock rate} as an rtpmap names it
     * (any case): G.711's for PCMU and PCMA, G.729A's for G729. Every other codec, and an unknown one
     * (null), is rated as G.711 with concealment: the relay holds no G.113 figures for them that it can
     * stand behind (and wideband or fullband codecs such as G.722 and opus belong to G.107.1 and G.107.2,
     * on another scale), so their R and MOS read as if the call were G.711 under the same loss and delay.
     */
    public static Codec codec(String rtpCodec) {
        if (rtpCodec == null) {
            return G711_PLC;
        }
        int slash = rtpCodec.indexOf('/');
        String encoding = slash < 0 ? rtpCodec : rtpCodec.substring(0, slash);
        return encoding.equalsIgnoreCase("G729") ? G729A_VAD : G711_PLC;
    }

    /**
     * @param oneWayDelayMs mouth-to-ear delay
     * @param lossPercent packets lost or discarded as late, in percent
     * @param burstRatio BurstR: 1 for random loss
     */
    public static double rating(Codec codec, double oneWayDelayMs, double lossPercent, double burstRatio) {
        double d = Math.max(0, oneWayDelayMs);
        double id = 0.024 * d + (d > 177.3 ? 0.11 * (d - 177.3) : 0);
        double ppl = Math.max(0, lossPercent);
        double ieEff = codec.ie() + (95 - codec.ie()) * ppl / (ppl / burstRatio + codec.bpl());
        return R_DEFAULT - id - ieEff;
    }

    /** G.107 Annex B: MOS (conversational quality, estimated) from R. */
    public static double mos(double r) {
        if (r < 0) {
            return 1;
        }
        if (r > 100) {
            return 4.5;
        }
        return 1 + 0.035 * r + 7e-6 * r * (r - 60) * (100 - r);
    }
}

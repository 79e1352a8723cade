package net.hopwise.overlay.impair;

/**
 * How an impaired path loses packets on the wire.
 *
 * <p>No loss is {@link #NONE}, a Bernoulli model with probability 0, so that "no loss" has exactly one
 * spelling and configurations compare equal however they were built.
 */
public sealed interface LossModel permits LossModel.Bernoulli, LossModel.GilbertElliott {
    /** Loses nothing. */
    LossModel NONE = new Bernoulli(0.0);

    /** The fraction of packets this model loses in the long run. */
    double stationaryLossRate();

    /** True when this model can never lose a packet. */
    boolean isLossless();

    /**
     * Every packet is lost independently with the same probability: the classic model, with no
     * memory and so no bursts.
     */
    record Bernoulli(double probability) implements LossModel {
        public Bernoulli {
            requireProbability("loss probability", probability);
        }

        @Override
        public double stationaryLossRate() {
            return probability;
        }

        @Override
        public boolean isLossless() {
            return probability == 0.0;
        }

        @Override
        public String toString() {
            return "bernoulli(" + ImpairmentConfig.percent(probability) + ")";
        }
    }

    /**
     * A two-state Markov chain (Gilbert-Elliott): the path is either good or bad and loses packets
     * with a different probability in each, so losses come in bursts as they do on congested or
     * wireless paths. The chain takes one step per packet, before that packet's fate is drawn, and
     * starts in the good state.
     *
     * <p>With {@code lossInGood = 0} and {@code lossInBad = 1} (the Gilbert model) every stay in the
     * bad state is one burst of losses, of mean length {@code 1 / pBadToGood}.
     *
     * @param pGoodToBad probability of moving from good to bad at a packet
     * @param pBadToGood probability of moving from bad to good at a packet
     * @param lossInGood probability of losing a packet while good
     * @param lossInBad probability of losing a packet while bad
     */
    record GilbertElliott(double pGoodToBad, double pBadToGood, double lossInGood, double lossInBad)
            implements LossModel {
        public GilbertElliott {
            requireProbability("Gilbert-Elliott pGoodToBad", pGoodToBad);
            requireProbability("Gilbert-Elliott pBadToGood", pBadToGood);
            requireProbability("Gilbert-Elliott lossInGood", lossInGood);
            requireProbability("Gilbert-Elliott lossInBad", lossInBad);
        }

        /** Long-run fraction of packets that see the bad state; 0 when the chain never leaves good. */
        public double stationaryBadFraction() {
            double sum = pGoodToBad + pBadToGood;
            // A chain that never moves stays where it starts: good.
            return sum == 0.0 ? 0.0 : pGoodToBad / sum;
        }

        @Override
        public double stationaryLossRate() {
            double bad = stationaryBadFraction();
            return (1.0 - bad) * lossInGood + bad * lossInBad;
        }

        @Override
        public boolean isLossless() {
            return lossInGood == 0.0 && (lossInBad == 0.0 || pGoodToBad == 0.0);
        }

        @Override
        public String toString() {
            return "gilbert-elliott(good->bad " + ImpairmentConfig.percent(pGoodToBad)
                    + ", bad->good " + ImpairmentConfig.percent(pBadToGood)
                    + ", loss good " + ImpairmentConfig.percent(lossInGood)
                    + ", loss bad " + ImpairmentConfig.percent(lossInBad) + ")";
        }
    }

    private static void requireProbability(String name, double p) {
        // Written so that NaN fails too.
        if (!(p >= 0.0 && p <= 1.0)) {
            throw new IllegalArgumentException(name + " must be in [0, 1], got " + p);
        }
    }
}

package net.hopwise.voip.sip;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The seeded fuzz run: mutated and random messages through parser, editor and framer
 * ({@code -Dvoip.fuzz.count=1000000} for the million-input run recorded in docs/voip.md,
 * {@code -Dvoip.fuzz.seed=S} to replay another run). Inputs are wrapped arrays so that the leak
 * detector's stack traces do not dominate the run; reference counts are checked exactly instead,
 * and {@link SipCodecProperties} covers the same code with every buffer tracked by the leak detector.
 */
class SipCodecFuzzTest {
    /**
     * Inputs in a normal build: with the jqwik properties' tracked inputs this keeps the module's
     * tests near 15 s on the shared 2-core machine; the million-input run is the documented command.
     */
    private static final int SUITE_COUNT = 400_000;

    @Test
    void mutatedMessagesGiveAMessageOrATypedErrorAndNeverLeak() {
        long seed = Long.getLong("voip.fuzz.seed", 0x5EED_4475L);
        int count = Integer.getInteger("voip.fuzz.count", SUITE_COUNT);
        Random random = new Random(seed);
        SipMutator mutator = new SipMutator();
        SipCodecExercise exercise = new SipCodecExercise(false);
        long started = System.nanoTime();
        int i = 0;
        try {
            for (; i < count; i++) {
                byte[] input = mutator.next(random);
                exercise.run(input, random.nextInt(input.length + 1));
            }
        } catch (Throwable failure) {
            throw new AssertionError("fuzz input " + i + " of seed " + seed + " failed", failure);
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf("SIP fuzz: seed %d, %d inputs in %d ms: %d messages (%d edited and reparsed), %d keep-alives, errors %s%n",
                seed, count, millis, exercise.messages, exercise.reparsed, exercise.keepAlives, exercise.errors);
        assertThat(exercise.faults()).isZero();
        assertThat(exercise.messages).as("the mutations still leave many messages valid").isGreaterThan(count / 20);
    }
}

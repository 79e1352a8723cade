package net.hopwise.voip.sip;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import net.hopwise.overlay.testing.LeakDetection;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AfterContainer;

/** Totality of the codec on jqwik's inputs, with every buffer tracked by the leak detector. */
class SipCodecProperties {
    private static final SipMutator MUTATOR = new SipMutator();

    @Property(tries = 4000)
    void mutatedMessagesNeverEscapeOrLeak(@ForAll long seed) {
        Random random = new Random(seed);
        byte[] input = MUTATOR.next(random);
        SipCodecExercise exercise = new SipCodecExercise(true);
        exercise.run(input, random.nextInt(input.length + 1));
        assertThat(exercise.faults()).isZero();
    }

    @Property(tries = 4000)
    void arbitraryBytesNeverEscapeOrLeak(@ForAll @Size(max = 1600) byte[] input, @ForAll int cut) {
        SipCodecExercise exercise = new SipCodecExercise(true);
        exercise.run(input, Math.floorMod(cut, input.length + 1));
        assertThat(exercise.faults()).isZero();
    }

    @Property(tries = 200)
    void everySeedMessageParsesWhole(@ForAll long seed) {
        SipCodecExercise exercise = new SipCodecExercise(true);
        byte[] message = MUTATOR.seed((int) Math.floorMod(seed, (long) MUTATOR.seedCount()));
        exercise.run(message, message.length / 2);
        assertThat(exercise.messages + exercise.errors.size()).isEqualTo(1);
    }

    @AfterContainer
    static void noLeaks() {
        LeakDetection.assertNoLeaks();
    }
}

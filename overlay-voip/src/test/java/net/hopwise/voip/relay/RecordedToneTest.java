package net.hopwise.voip.relay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The tone check the baresip test relies on tells the tone from silence, noise, another note and gaps. */
class RecordedToneTest {
    private static final double RATE = 48_000;

    private static short[] tone(double hz, double seconds, double amplitude) {
        short[] s = new short[(int) (RATE * seconds)];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) Math.round(amplitude * Math.sin(2 * Math.PI * hz * i / RATE));
        }
        return s;
    }

    @Test
    void aSteadyToneFillsEveryFrame() {
        RecordedTone t = RecordedTone.measure(tone(440, 2, 11_000), RATE, 440);
        assertThat(t.frames()).isEqualTo(100);
        assertThat(t.toned()).isEqualTo(100);
        assertThat(t.tonedShareOfSpan()).isEqualTo(1.0);
        assertThat(t.tonedSeconds()).isEqualTo(2.0);
    }

    @Test
    void anotherNoteSilenceAndNoiseAreNotTheTone() {
        assertThat(RecordedTone.measure(tone(880, 1, 11_000), RATE, 440).toned()).isZero();
        assertThat(RecordedTone.measure(tone(470, 1, 11_000), RATE, 440).toned()).isZero();
        RecordedTone quiet = RecordedTone.measure(tone(440, 1, 500), RATE, 440);
        assertThat(quiet.sounding()).isZero();
        SplittableRandom random = new SplittableRandom(7);
        short[] noise = new short[(int) RATE];
        for (int i = 0; i < noise.length; i++) {
            noise[i] = (short) random.nextInt(-12_000, 12_000);
        }
        RecordedTone n = RecordedTone.measure(noise, RATE, 440);
        assertThat(n.sounding()).isEqualTo(50);
        assertThat(n.toned()).isZero();
    }

    @Test
    void aGapInsideTheToneCountsAgainstTheSpan() {
        short[] s = tone(440, 2, 11_000);
        // 10 frames of silence and 10 of noise in the middle.
        java.util.Arrays.fill(s, 960 * 40, 960 * 50, (short) 0);
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 960 * 50; i < 960 * 60; i++) {
            s[i] = (short) random.nextInt(-12_000, 12_000);
        }
        RecordedTone t = RecordedTone.measure(s, RATE, 440);
        assertThat(t.toned()).isEqualTo(80);
        assertThat(t.firstToned()).isZero();
        assertThat(t.lastToned()).isEqualTo(99);
        assertThat(t.tonedShareOfSpan()).isEqualTo(0.8);
    }
}

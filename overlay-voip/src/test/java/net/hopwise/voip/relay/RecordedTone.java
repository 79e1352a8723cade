package net.hopwise.voip.relay;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import javax.sound.sampled.AudioFormat;
import javax.sound.sampled.AudioInputStream;
import javax.sound.sampled.AudioSystem;
import javax.sound.sampled.UnsupportedAudioFileException;

/**
 * What a phone's recording holds, read 20 ms at a time: how many frames carry sound, and how many of
 * those carry one tone. A frame carries the tone when the tone's Goertzel power is most of the
 * frame's energy, so noise, silence, clipped or garbled audio and another frequency all fail it.
 *
 * @param frames 20 ms frames in the recording
 * @param sounding frames with sound (RMS over {@link #SOUND_RMS})
 * @param toned sounding frames whose energy is mostly the tone
 * @param firstToned index of the first toned frame, -1 when none
 * @param lastToned index of the last toned frame, -1 when none
 */
record RecordedTone(int frames, int sounding, int toned, int firstToned, int lastToned) {
    /** About -30 dBFS: far above a decoder's comfort noise, far below the 440 Hz source's -9 dBFS. */
    static final double SOUND_RMS = 1000;
    /** Share of a frame's energy at the tone's frequency for it to count as the tone. */
    static final double TONE_SHARE = 0.8;

    /** Toned frames among the frames from the first toned one to the last: gaps inside the call. */
    double tonedShareOfSpan() {
        return firstToned < 0 ? 0 : (double) toned / (lastToned - firstToned + 1);
    }

    /** Seconds of tone heard. */
    double tonedSeconds() {
        return toned * 0.02;
    }

    /** Reads a 16-bit PCM WAV file (the first channel) and measures {@code hz} in it. */
    static RecordedTone of(Path wav, double hz) throws IOException {
        try (AudioInputStream in = AudioSystem.getAudioInputStream(wav.toFile())) {
            AudioFormat f = in.getFormat();
            if (f.getEncoding() != AudioFormat.Encoding.PCM_SIGNED || f.getSampleSizeInBits() != 16) {
                throw new IOException(wav + " is " + f + ", not 16-bit signed PCM");
            }
            return measure(samples(in, f), f.getSampleRate(), hz);
        } catch (UnsupportedAudioFileException e) {
            throw new IOException(wav + " is not a WAV file the JDK reads", e);
        }
    }

    private static short[] samples(InputStream in, AudioFormat f) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(in.readAllBytes()).order(f.isBigEndian() ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
        int channels = f.getChannels();
        short[] s = new short[b.remaining() / (2 * channels)];
        for (int i = 0; i < s.length; i++) {
            s[i] = b.getShort(i * 2 * channels);
        }
        return s;
    }

    static RecordedTone measure(short[] s, double rate, double hz) {
        int n = (int) Math.round(rate * 0.02);
        int frames = s.length / n;
        int sounding = 0;
        int toned = 0;
        int first = -1;
        int last = -1;
        double k = 2 * Math.cos(2 * Math.PI * hz / rate);
        for (int f = 0; f < frames; f++) {
            double energy = 0;
            double s1 = 0;
            double s2 = 0;
            for (int i = f * n; i < (f + 1) * n; i++) {
                double v = s[i];
                energy += v * v;
                double s0 = v + k * s1 - s2;
                s2 = s1;
                s1 = s0;
            }
            if (Math.sqrt(energy / n) < SOUND_RMS) {
                continue;
            }
            sounding++;
            // Goertzel's power is (n A / 2)^2 for a tone of amplitude A filling the frame, and the
            // frame's energy n A^2 / 2: their ratio, over n / 2, is the tone's share of the energy.
            double power = s1 * s1 + s2 * s2 - k * s1 * s2;
            if (power / (energy * n / 2) >= TONE_SHARE) {
                toned++;
                first = first < 0 ? f : first;
                last = f;
            }
        }
        return new RecordedTone(frames, sounding, toned, first, last);
    }
}

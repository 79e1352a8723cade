package net.hopwise.overlay.security;

/** A handshake this node started. */
final class Initiation {
    final int localIndex;
    final NoiseXX noise;
    final long startedNanos;
    long lastSentNanos;
    byte[] message;

    Initiation(int localIndex, NoiseXX noise, long now) {
        this.localIndex = localIndex;
        this.noise = noise;
        this.startedNanos = now;
        this.lastSentNanos = now;
    }
}

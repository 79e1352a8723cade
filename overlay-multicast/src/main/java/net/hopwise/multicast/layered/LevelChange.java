package net.hopwise.multicast.layered;

/**
 * One move of a layered receiver: from then on it held layers 0..{@code level} and took {@code
 * rateBitsPerSecond}, the cumulative rate of that level.
 *
 * @param nowNanos the receiving node's clock at the move
 * @param level the highest layer held, -1 for none
 */
public record LevelChange(long nowNanos, int level, long rateBitsPerSecond) {}

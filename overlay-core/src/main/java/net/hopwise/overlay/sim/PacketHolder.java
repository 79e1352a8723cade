package net.hopwise.overlay.sim;

/** A pending action that holds a packet, so closing a simulation can release it. */
interface PacketHolder {
    Packet packet();
}

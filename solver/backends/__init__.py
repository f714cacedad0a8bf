"""Payment backends behind one interface: flow, CP-SAT, enumeration."""

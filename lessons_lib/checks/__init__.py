"""The checks of a recorded exchange: the verifiers, the sabotages and the doctor (lessons 07-08, 31)."""

"""Firepower/MBT adapter: Firepower squads as MBT leg units, town fights as nested Firepower games."""

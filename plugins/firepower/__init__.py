"""Firepower (Avalon Hill): the Basic Game (rules 1-7) as the hexwar system ``firepower``.

Every counter is one soldier; the turn is a blind draw of sequence units, each giving its side an
Impulse Phase of two Impulses. Modules: ``tables`` (the Basic Game Card as data), ``terrain``
(map, fence and hedge pictures), ``los`` (6.3.4), ``combat`` (the fire and grenade procedures as
named steps, melee), ``engine`` (phases, Actions, victory), ``ai`` (the sensible AI),
``commands`` (``hexwar firepower fire|grenade``), ``hookspecs`` (``firepower_`` hooks for the
Advanced Game and the Optional Rules, which come later as plugins of their own).
"""

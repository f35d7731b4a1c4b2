"""Seven-card stud high-low with a declaration: ``stud_hilo_declare_v0``.

Rules (RULES.md section 3): as ``stud_hilo_v0``, but after the last betting round every
remaining player declares low, high or both (actions 4, 5, 6) in secret; the choices
are revealed together. The high half goes to the best high among high/both declarers,
the low half to the best qualifying low among low/both declarers; if nobody can take
a half the other side takes the whole pot. A player who declared both must win both
halves (``swing_rule="win_or_tie"`` lets ties count, ``"outright"`` does not) or is out
of both. If every declarer of a pot is out, that pot is chopped among its players.

Actions: as ``stud_v0``, with ``declare_low``, ``declare_high``, ``declare_both`` legal
only in the declaration. Observation: as ``stud_v0`` plus ``declarations`` (``3n``:
per relative seat low/high/both, your own at once, others' only after the reveal),
placed before ``shown``.
"""

from envs.registry import env_functions

raw_env, env = env_functions("stud_hilo_declare")

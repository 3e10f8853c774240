"""``/stats``: the threads this server holds, summed per day, week, agent, project, model and
tool (``routes``), each table after its chart (``chart``: SVG drawn on the server).
"""

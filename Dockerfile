# The scoring program as a self-contained image: the pins of requirements.txt (those of
# codalab/codalab-legacy:py312 and pandas' own dependencies). Build and run: see docs/docker.md.
# BASE is a build argument only so the project's own check can build on a locally made base;
# organizers build with the default.
ARG BASE=python:3.12-slim
FROM ${BASE}
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1
# The same list as requirements.txt, line for line.
RUN python3 -m pip install --no-cache-dir --disable-pip-version-check \
        'numpy==1.26.4' \
        'pandas==2.2.3' \
        'PyYAML==6.0.2' \
        'python-dateutil==4.0.0; python_version >= "3.11"' \
        'python-dateutil==3.0.0; python_version < "3.11"' \
        'six==1.17.0; python_version < "3.11"' \
        'pytz==2026.6' \
        'tzdata==2026.6'
COPY scoring_program/ /app/program/
WORKDIR /app/program
# Scoring needs no network: mount the input (ref/ + res/) at /app/input and collect /app/output.
CMD ["python3", "/app/program/score.py", "/app/input", "/app/output"]

# The scoring program as a self-contained image (same pins as requirements.txt and
# codalab/codalab-legacy:py312). Build and run: see docs/docker.md.
FROM python:3.12-slim
ENV PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1
RUN python3 -m pip install --no-cache-dir numpy==1.26.4 pandas==2.2.3 PyYAML==6.0.2
COPY scoring_program/ /app/program/
WORKDIR /app/program
# Scoring needs no network: mount the input (ref/ + res/) at /app/input and collect /app/output.
CMD ["python3", "/app/program/score.py", "/app/input", "/app/output"]

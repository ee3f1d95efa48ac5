"""Serverless functions a Serverless Framework service or an AWS SAM template deploys, with the code that runs them."""

from __future__ import annotations

from rag.analysis.serverless import serverless_functions
from tests.rag.analysis.readings import entrypoint_rows

SERVICE = """\
service: users
provider:
  name: aws
  runtime: nodejs18.x
functions:
  createUser:
    handler: src/handlers/users.create
    events:
      - http:
          path: users
          method: post
  getUser:
    handler: src/handlers/users.get
    events:
      - httpApi: 'GET /users/{id}'
  nightly:
    handler: src/jobs.nightly
    events:
      - schedule: rate(1 day)
  internal:
    handler: src/jobs.internal
"""

TEMPLATE = """\
AWSTemplateFormatVersion: '2010-09-09'
Transform: AWS::Serverless-2016-10-31
Resources:
  HelloWorldFunction:
    Type: AWS::Serverless::Function
    Properties:
      CodeUri: hello_world/
      Handler: app.lambda_handler
      Policies:
        - DynamoDBCrudPolicy:
            TableName: !Ref Table
      Events:
        HelloWorld:
          Type: Api
          Properties:
            Path: /hello
            Method: get
        Queue:
          Type: SQS
          Properties:
            Queue: !GetAtt Jobs.Arn
  Table:
    Type: AWS::Serverless::SimpleTable
"""


def test_the_functions_a_serverless_service_and_a_sam_template_deploy_are_routes_and_tasks_handled_by_their_code():
    found = entrypoint_rows(
        {
            "api/serverless.yml": SERVICE,
            "api/src/handlers/users.js": (
                "module.exports.create = async (event) => ({ statusCode: 201 });\n"
                "export const get = async (event) => ({ statusCode: 200 });\n"
            ),
            "api/src/jobs.py": "def nightly(event, context):\n    return None\n\n\ndef internal(event, context):\n    return None\n",
            "sam/template.yaml": TEMPLATE,
            "sam/hello_world/app.py": "def lambda_handler(event, context):\n    return {'statusCode': 200}\n",
            # A function of that name elsewhere is not the one the configuration names.
            "other/app.py": "def lambda_handler(event, context):\n    return None\n",
        },
        "entry_type", "framework", "route_or_command", "methods", "handler",
    )

    assert found == {
        ("http_route", "serverless", "/users", ("POST",), "api.src.handlers.users.create"),
        ("http_route", "serverless", "/users/{id}", ("GET",), "api.src.handlers.users.get"),
        ("task", "serverless", "nightly", (), "jobs.nightly"),
        ("http_route", "aws-sam", "/hello", ("GET",), "sam.hello_world.app.lambda_handler"),
        ("task", "aws-sam", "HelloWorldFunction", (), "sam.hello_world.app.lambda_handler"),
    }


def test_a_configuration_that_does_not_parse_or_deploys_nothing_gives_no_entrypoints():
    assert serverless_functions("serverless.yml", "functions: [unclosed\n") is None
    assert serverless_functions("template.yaml", "Resources:\n  Bucket:\n    Type: AWS::S3::Bucket\n") is None
    # Anchors that repeat a function many times over are read as far as the limits go.
    nested = "a: &a {handler: h.f, events: [{http: {path: x, method: get}}]}\nfunctions:\n" + "".join(f"  f{i}: *a\n" for i in range(3000))
    facts = serverless_functions("serverless.yml", nested)
    assert facts is not None and len(facts.entrypoints) == 1000
